/**
 * The validator of schemas/suite.schema.json, generated from it ahead of time with the same AJV settings as the
 * scenario format (src/config/fixed-schemas.ts).
 */
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { fixedValidator } from '../config/fixed-schemas.ts';
import * as generated from '../config/generated/suite-validator.ts';

export const SUITE_SCHEMA_ID = 'https://api-harness.example/schemas/suite.json';

let validator: ValidateFunction | undefined;

export function suiteSchemaErrors(data: unknown): ErrorObject[] {
  validator ??= fixedValidator('suite', generated);
  return validator(data) ? [] : [...(validator.errors ?? [])];
}
