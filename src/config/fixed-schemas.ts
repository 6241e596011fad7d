/**
 * The schemas the harness ships and validates its inputs with: the config, scenario, suite and report formats.
 * Their validators are generated ahead of time (Ajv standalone code, written into src/config/generated/ by
 * `npm run schemas:compile`, which `npm run build` runs), because compiling them with Ajv at run time was most of
 * the CPU a short `harness` command used, in every process. The generated code is what Ajv compiles from the same
 * schema with the same options, so the errors, and the messages made from them, are the same.
 *
 * Each generated module carries a hash of the schema files it was made from. When a file no longer matches (a
 * schema edited in a checkout and not compiled again), the validator is compiled from the files at run time
 * instead, so validation never follows a stale copy; test/unit/config/generated-validators.test.ts fails until
 * the generated modules are written again.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import type { CodeOptions, Options, ValidateFunction } from 'ajv';
import { packagePath } from '../package-root.ts';
import { API_AJV_OPTIONS, API_SCHEMA_DIR, addFormats, loadApiSchemas } from '../schemas/registry.ts';

export type FixedSchemaName = 'harness-config' | 'scenario' | 'suite' | 'report';

export interface FixedSchema {
  /** The schema file, from the package root. */
  file: string;
  /** The Ajv options its validator is compiled with. */
  options: Options;
  /** The project keyword `errorMessage` (the text a failed `pattern`/`format` shows); Ajv only carries it. */
  errorMessageKeyword: boolean;
  /** The API schemas (schemas/api/) are added first: the schema `$ref`s them. */
  apiSchemas: boolean;
}

// verbose: errors carry parentSchema, which holds errorMessage and the sibling keys for suggestions.
const FORMAT_OPTIONS: Options = { allErrors: true, verbose: true, strict: true, allowUnionTypes: true };

export const FIXED_SCHEMAS: Readonly<Record<FixedSchemaName, FixedSchema>> = {
  'harness-config': {
    file: 'schemas/harness-config.schema.json',
    options: { allErrors: true, verbose: true, strict: true },
    errorMessageKeyword: true,
    apiSchemas: false,
  },
  scenario: { file: 'schemas/scenario.schema.json', options: FORMAT_OPTIONS, errorMessageKeyword: true, apiSchemas: false },
  suite: { file: 'schemas/suite.schema.json', options: FORMAT_OPTIONS, errorMessageKeyword: true, apiSchemas: false },
  // A report is checked like the API's bodies are (src/schemas/registry.ts), with the API schemas beside it.
  report: { file: 'schemas/report.schema.json', options: API_AJV_OPTIONS, errorMessageKeyword: false, apiSchemas: true },
};

/** What a generated module exports. */
export interface GeneratedValidator {
  validate: unknown;
  sourceHash: string;
}

/** The schema files a validator is made from, in a fixed order. */
export function sourceFiles(name: FixedSchemaName): string[] {
  const schema = FIXED_SCHEMAS[name];
  const api = schema.apiSchemas ? readdirSync(packagePath(API_SCHEMA_DIR)).filter((f) => f.endsWith('.schema.json')).sort().map((f) => `${API_SCHEMA_DIR}${f}`) : [];
  return [schema.file, ...api];
}

/** sha256 over the names and texts of the schema files, and the options the validator is compiled with. */
export function sourceHash(name: FixedSchemaName): string {
  const hash = createHash('sha256').update(JSON.stringify(FIXED_SCHEMAS[name]));
  for (const file of sourceFiles(name)) hash.update(`\0${file}\0`).update(readFileSync(packagePath(file)));
  return hash.digest('hex');
}

/**
 * An Ajv instance holding the schema `name`, and its compiled validator. Ajv is loaded here, on first need, so a
 * command whose validators are all generated never loads it. `code`: what the generator asks for (source code).
 */
export function compileFixed(name: FixedSchemaName, code?: CodeOptions): { ajv: Ajv2020; validate: ValidateFunction } {
  const schema = FIXED_SCHEMAS[name];
  const { Ajv2020: AjvClass } = createRequire(import.meta.url)('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  const ajv = new AjvClass({ ...schema.options, ...(code ? { code } : {}) });
  if (schema.errorMessageKeyword) ajv.addKeyword({ keyword: 'errorMessage', schemaType: 'string' });
  addFormats(ajv);
  if (schema.apiSchemas) for (const api of loadApiSchemas().values()) ajv.addSchema(api);
  const validate = ajv.compile(JSON.parse(readFileSync(packagePath(schema.file), 'utf8')) as object);
  return { ajv, validate };
}

/**
 * The API schemas' validators (src/config/generated/api-validators.ts), for the conformance checks and the
 * reference target: one for each schema and each of its `$defs`, by `$id` (`…/send-message-request.json#/$defs/text`).
 */
export function apiSchemaRefs(): string[] {
  const refs: string[] = [];
  for (const schema of loadApiSchemas().values()) {
    refs.push(schema.$id);
    for (const def of Object.keys((schema.$defs ?? {}) as object)) refs.push(`${schema.$id}#/$defs/${def}`);
  }
  return refs;
}

/** sha256 over the API schema files and the options they are compiled with. */
export function apiSourceHash(): string {
  const hash = createHash('sha256').update(JSON.stringify(API_AJV_OPTIONS));
  for (const file of readdirSync(packagePath(API_SCHEMA_DIR)).filter((f) => f.endsWith('.schema.json')).sort()) {
    hash.update(`\0${file}\0`).update(readFileSync(packagePath(`${API_SCHEMA_DIR}${file}`)));
  }
  return hash.digest('hex');
}

/** What the generated module of the API schemas exports: each validator under a name, and the names' `$id`s. */
export interface GeneratedApiValidators {
  sourceHash: string;
  ids: Readonly<Record<string, string>>;
  [exported: string]: unknown;
}

/**
 * The generated API validators by `$id`, while they match the schema files; else an empty map (the callers then
 * compile from the files with createAjv, as they do for a schema a config names).
 */
export function apiValidators(generated: GeneratedApiValidators): ReadonlyMap<string, ValidateFunction> {
  apiChecked ??= generated.sourceHash === apiSourceHash();
  if (!apiChecked) return new Map();
  return new Map(Object.entries(generated.ids).map(([key, id]) => [id, generated[key] as ValidateFunction]));
}

// The schema files do not change while a process runs: they are hashed once.
let apiChecked: boolean | undefined;

/** The validator of `name`: the generated one while it matches the schema files, else compiled from them. */
export function fixedValidator(name: FixedSchemaName, generated: GeneratedValidator): ValidateFunction {
  if (generated.sourceHash === sourceHash(name)) return generated.validate as ValidateFunction;
  return compileFixed(name).validate;
}
