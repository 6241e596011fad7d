/**
 * Request-body validation against schemas/api (the same files the conformance checks use), with Ajv's errors
 * turned into the problem `errors[]` form: a JSON Pointer to the offending field and a sentence about it.
 */
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { apiValidators } from '../../config/fixed-schemas.ts';
import * as generatedApi from '../../config/generated/api-validators.ts';
import { apiAjv, schemaId } from '../../schemas/registry.ts';
import { validationFailed, type FieldError } from './problem.ts';

export class BodyValidator {
  readonly #ajv: Ajv2020 | undefined;
  // Without an Ajv of the caller's, the API schemas' validators generated ahead of time (src/config/fixed-schemas.ts).
  readonly #generated: ReadonlyMap<string, ValidateFunction>;
  readonly #compiled = new Map<string, ValidateFunction>();

  constructor(ajv?: Ajv2020) {
    this.#ajv = ajv;
    this.#generated = ajv ? new Map() : apiValidators(generatedApi);
  }

  /**
   * Field errors of `body` against an API schema, or [] when it is valid.
   * @param ref a schema base name (`campaign-request`), optionally with a fragment (`send-message-request#/$defs/text`)
   */
  errors(ref: string, body: unknown): FieldError[] {
    const validate = this.#get(ref);
    return validate(body) ? [] : toFieldErrors(validate.errors ?? []);
  }

  /** Throws the 400 validation_failed problem when `body` does not match. */
  assert(ref: string, body: unknown): void {
    const errors = this.errors(ref, body);
    if (errors.length > 0) throw validationFailed(errors);
  }

  #get(ref: string): ValidateFunction {
    let validate = this.#compiled.get(ref);
    if (!validate) {
      const [name, fragment] = ref.split('#') as [string, string | undefined];
      const id = fragment ? `${schemaId(name)}#${fragment}` : schemaId(name);
      validate = this.#generated.get(id) ?? (this.#ajv ?? apiAjv()).getSchema(id);
      if (!validate) throw new Error(`no API schema ${ref}`);
      this.#compiled.set(ref, validate);
    }
    return validate;
  }
}

let shared: BodyValidator | undefined;

/** One validator per process: the schemas never change at run time, so every app can share the compiled code. */
export function sharedBodyValidator(): BodyValidator {
  shared ??= new BodyValidator();
  return shared;
}

/** Ajv errors → field errors. Keyword-specific paths point at the field itself, not at its parent object. */
export function toFieldErrors(errors: readonly ErrorObject[]): FieldError[] {
  const seen = new Set<string>();
  const out: FieldError[] = [];
  for (const error of errors) {
    // if/then and the like only restate a more specific error that is also in the list.
    if (error.keyword === 'if' || error.keyword === 'oneOf' || error.keyword === 'anyOf') continue;
    const field = fieldError(error);
    const key = `${field.path}\u0000${field.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(field);
  }
  return out;
}

function fieldError(error: ErrorObject): FieldError {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return { path: `${error.instancePath}/${escape(String(params.missingProperty))}`, message: 'is required' };
    case 'additionalProperties':
      return { path: `${error.instancePath}/${escape(String(params.additionalProperty))}`, message: 'is not allowed' };
    case 'const':
      return { path: error.instancePath, message: `must be ${JSON.stringify(params.allowedValue)}` };
    case 'enum':
      return {
        path: error.instancePath,
        message: `must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`,
      };
    case 'format':
      return { path: error.instancePath, message: `must be a valid ${String(params.format)}` };
    default:
      return { path: error.instancePath, message: error.message ?? 'is invalid' };
  }
}

/** RFC 6901 escaping of one reference token. */
function escape(token: string): string {
  return token.replaceAll('~', '~0').replaceAll('/', '~1');
}
