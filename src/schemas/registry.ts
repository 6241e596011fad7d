/**
 * The one place that loads the API's JSON Schemas (schemas/api/*.schema.json, draft 2020-12). The reference
 * target validates request bodies with them and the conformance checks validate responses with them, so both
 * sides agree by construction: a schema change is a change for both.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { CodeOptions, Options } from 'ajv';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { packagePath } from '../package-root.ts';

export const SCHEMA_ID_BASE = 'https://api-harness.example/schemas/api/';

/** The API schemas' folder, from the package root. */
export const API_SCHEMA_DIR = 'schemas/api/';
const SCHEMA_DIR = packagePath(API_SCHEMA_DIR);
const SUFFIX = '.schema.json';

/** A schema as read from disk: a JSON object with at least an `$id`. */
export type JsonSchema = { $id: string } & Record<string, unknown>;

/** `$id` of an API schema by its base name, e.g. `schemaId('listed-message')`. */
export function schemaId(name: string): string {
  return `${SCHEMA_ID_BASE}${name}.json`;
}

let cached: ReadonlyMap<string, JsonSchema> | undefined;

/** Every API schema by base name, read once per process. Throws when a file's `$id` does not match its name. */
export function loadApiSchemas(): ReadonlyMap<string, JsonSchema> {
  if (cached) return cached;
  const schemas = new Map<string, JsonSchema>();
  for (const file of readdirSync(SCHEMA_DIR).filter((f) => f.endsWith(SUFFIX)).sort()) {
    const name = file.slice(0, -SUFFIX.length);
    const schema = JSON.parse(readFileSync(`${SCHEMA_DIR}${file}`, 'utf8')) as JsonSchema;
    // A mismatched $id would make $refs resolve to the wrong file silently; fail loudly instead.
    if (schema.$id !== schemaId(name)) {
      throw new Error(`schemas/api/${file}: $id must be ${schemaId(name)}, found ${String(schema.$id)}`);
    }
    schemas.set(name, schema);
  }
  cached = schemas;
  return schemas;
}

// Ajv and ajv-formats (CommonJS) are loaded on first use: a command whose validators are all generated ahead of
// time (src/config/fixed-schemas.ts) never needs them, and loading Ajv alone is a noticeable part of a start.
const load = createRequire(import.meta.url);

/** Adds every format of ajv-formats to `ajv`. */
export function addFormats(ajv: Ajv2020): Ajv2020 {
  const module = load('ajv-formats') as { default?: (ajv: Ajv2020) => Ajv2020 } & ((ajv: Ajv2020) => Ajv2020);
  return (module.default ?? module)(ajv);
}

/**
 * Strict mode stays on so a typo in a keyword fails at load time; union types are allowed because
 * `["string", "null"]` is how the schemas say "nullable", and `required` may name properties declared in a
 * sibling (if/then), which strictRequired would reject.
 */
export const API_AJV_OPTIONS: Readonly<Options> = { allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true };

/**
 * A fresh Ajv (draft 2020-12, every format of ajv-formats, all errors) with every API schema added, plus
 * `extra` schemas (each needs its own `$id`). `code`: Ajv's code options (the validator generator asks for source).
 */
export function createAjv(extra: readonly object[] = [], code?: CodeOptions): Ajv2020 {
  const { Ajv2020: AjvClass } = load('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  const ajv = new AjvClass({ ...API_AJV_OPTIONS, ...(code ? { code } : {}) });
  addFormats(ajv);
  // The shipped schemas are checked against the draft 2020-12 meta-schema by a test
  // (test/unit/schemas/meta-schema.test.ts), not in every process: compiling the meta-schema is most of what this
  // function costs. Schemas from elsewhere (`extra`, a config's replacements, a suite file's) are still checked.
  for (const schema of loadApiSchemas().values()) ajv.addSchema(schema, undefined, undefined, false);
  for (const schema of extra) ajv.addSchema(schema);
  return ajv;
}

let shared: Ajv2020 | undefined;

/**
 * The process's one Ajv holding the API schemas and nothing else, shared by the reference target and the checks
 * (an embedded run has both in one process). Every Ajv compiles the draft 2020-12 meta-schema to check the schemas
 * added to it, and compiles each schema again on first use: one instance pays that once. Callers only look up
 * and compile through it; a schema of the user's (a file named in the config or a suite) goes to an Ajv of its
 * own from createAjv, so what one run adds can never change what another sees.
 */
export function apiAjv(): Ajv2020 {
  shared ??= createAjv();
  return shared;
}
