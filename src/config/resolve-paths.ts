/**
 * `api.errorSchema` and `api.schemas` hold either a schema's `$id` or a file path; `load.scenarios` entries
 * either a scenario name or a .yaml file path. A path in a file is
 * relative to that file (so a config works from any working directory); a path given on the command line is
 * relative to the working directory. Both are made absolute here, before the layers merge, so each value is
 * resolved against the place it was written.
 */
import { isAbsolute, resolve } from 'node:path';
import { isRecord } from './key-path.ts';

const SCHEMA_ID = /^(https?|urn):/i;

export function resolveSchemaRef(value: string, baseDir: string): string {
  return SCHEMA_ID.test(value) || isAbsolute(value) ? value : resolve(baseDir, value);
}

/** Resolves the schema references of one layer (a parsed file or the overrides). Mutates `layer`. */
export function resolveSchemaRefs(layer: unknown, baseDir: string): void {
  resolveScenarioFiles(layer, baseDir);
  // conformance.suiteFiles: always files, relative to the file that names them.
  if (isRecord(layer) && isRecord(layer.conformance) && Array.isArray(layer.conformance.suiteFiles)) {
    layer.conformance.suiteFiles = layer.conformance.suiteFiles.map((f: unknown) => (typeof f === 'string' && !isAbsolute(f) ? resolve(baseDir, f) : f));
  }
  if (!isRecord(layer) || !isRecord(layer.api)) return;
  const api = layer.api;
  if (typeof api.errorSchema === 'string') api.errorSchema = resolveSchemaRef(api.errorSchema, baseDir);
  if (isRecord(api.schemas)) {
    for (const [name, ref] of Object.entries(api.schemas)) {
      if (typeof ref === 'string') api.schemas[name] = resolveSchemaRef(ref, baseDir);
    }
  }
}

/** `load.scenarios`: a name (smoke) stays a name; a file (x.yaml) becomes absolute. Mutates `layer`. */
export function resolveScenarioFiles(layer: unknown, baseDir: string): void {
  if (!isRecord(layer) || !isRecord(layer.load) || !Array.isArray(layer.load.scenarios)) return;
  layer.load.scenarios = layer.load.scenarios.map((entry: unknown) =>
    typeof entry === 'string' && /\.ya?ml$/i.test(entry) && !isAbsolute(entry) ? resolve(baseDir, entry) : entry,
  );
}
