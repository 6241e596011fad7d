/**
 * Validates response bodies against the API schemas in schemas/api (the same files the reference target
 * validates requests with), or against the replacements a config names for a target with other shapes.
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { ConfigError } from '../errors/harness-errors.ts';
import { apiAjv, createAjv, schemaId } from '../schemas/registry.ts';
import { fail } from './outcomes.ts';

type Ajv = ReturnType<typeof createAjv>;

export interface SchemaValidatorOptions {
  /** Resource name → absolute file path or schema $id (config `api.schemas`). */
  replacements?: Readonly<Record<string, string>>;
  /** File path or $id of the error-body schema (config `api.errorSchema`). */
  errorSchema: string;
}

/** `at`: each error's JSON Pointer into the value (the instancePath, "" for the whole value), in step with `errors`. */
export type ValidationOutcome = { ok: true } | { ok: false; errors: string[]; at: string[] };

/** A config value that names a schema by its $id rather than by a file path. */
const SCHEMA_ID = /^(https?|urn):/;

/** Resource name under which the configured error schema is looked up. */
export const ERROR_SCHEMA = 'error';

export class SchemaValidator {
  readonly #ajv: Ajv;
  readonly #refs = new Map<string, string>();
  readonly #compiled = new Map<string, ValidateFunction>();

  constructor(options: SchemaValidatorOptions) {
    // Schemas named by $id are looked up in the process's API Ajv; a schema file is added to an Ajv of this
    // validator's own, so that one run's files never show through in another run of the same process.
    const refs = [...Object.values(options.replacements ?? {}), options.errorSchema];
    this.#ajv = refs.every((ref) => SCHEMA_ID.test(ref)) ? apiAjv() : createAjv();
    for (const [name, ref] of Object.entries(options.replacements ?? {})) this.#refs.set(name, this.#resolve(ref, `api.schemas.${name}`));
    this.#refs.set(ERROR_SCHEMA, this.#resolve(options.errorSchema, 'api.errorSchema'));
  }

  /** Validates `value` against the schema of resource `name` (a schemas/api base name, or "error"). */
  validate(name: string, value: unknown): ValidationOutcome {
    const validator = this.#validator(name);
    if (validator(value)) return { ok: true };
    const errors = validator.errors ?? [];
    return { ok: false, errors: errors.map(describeError), at: errors.map((error) => error.instancePath) };
  }

  /** Like validate, but a mismatch fails the running check, naming the schema and every violation. */
  expect(name: string, value: unknown, what = 'response body'): void {
    const outcome = this.validate(name, value);
    if (!outcome.ok) {
      fail(`${what} does not match schema "${name}": ${outcome.errors.slice(0, 5).join('; ')}`, {
        schema: this.#refs.get(name) ?? schemaId(name),
        errors: outcome.errors,
      });
    }
  }

  #validator(name: string): ValidateFunction {
    let validator = this.#compiled.get(name);
    if (!validator) {
      const id = this.#refs.get(name) ?? schemaId(name);
      validator = this.#ajv.getSchema(id);
      if (!validator) throw new Error(`no schema "${name}" (${id}) is loaded`);
      this.#compiled.set(name, validator);
    }
    return validator;
  }

  /** A $id stays; a file is read and added under its own $id (or its file URL). */
  #resolve(ref: string, configPath: string): string {
    if (SCHEMA_ID.test(ref)) {
      if (!this.#ajv.getSchema(ref)) {
        throw new ConfigError([{ path: configPath, message: `no schema with $id "${ref}" is known` }]);
      }
      return ref;
    }
    let text: string;
    try {
      text = readFileSync(ref, 'utf8');
    } catch (err) {
      const code = (err as { code?: string }).code;
      throw new ConfigError([{ path: configPath, message: `cannot read schema file ${ref}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'a directory, not a file' : (code ?? 'unreadable')}` }]);
    }
    // Never quote the file: a path mistyped as /etc/passwd or a key file must not end up on a console or in a log.
    let schema: unknown;
    try {
      schema = JSON.parse(text);
    } catch {
      throw new ConfigError([{ path: configPath, message: `${ref} is not a JSON file (a JSON Schema, draft 2020-12, is expected)` }]);
    }
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
      throw new ConfigError([{ path: configPath, message: `${ref} is JSON but not a JSON Schema (expected an object such as {"type": "object", ...})` }]);
    }
    const id = (schema as { $id?: unknown }).$id;
    const key = typeof id === 'string' ? id : pathToFileURL(ref).toString();
    if (!this.#ajv.getSchema(key)) {
      try {
        this.#ajv.addSchema({ ...schema, $id: key });
        this.#ajv.getSchema(key);
      } catch (err) {
        throw new ConfigError([{ path: configPath, message: `${ref} is not a valid JSON Schema: ${(err as Error).message.split('\n')[0]!.slice(0, 200)}` }]);
      }
    }
    return key;
  }
}

function describeError(error: ErrorObject): string {
  const where = error.instancePath || '/';
  if (error.keyword === 'additionalProperties') {
    return `${where} has unexpected property "${String(error.params.additionalProperty)}"`;
  }
  if (error.keyword === 'required') return `${where} is missing required property "${String(error.params.missingProperty)}"`;
  return `${where} ${error.message ?? 'is invalid'}`;
}
