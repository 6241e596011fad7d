/** The compiled validator of schemas/suite.schema.json (compiled once, same AJV settings as the scenario format). */
import { readFileSync } from 'node:fs';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { packageUrl } from '../package-root.ts';

export const SUITE_SCHEMA_ID = 'https://api-harness.example/schemas/suite.json';
const SUITE_SCHEMA_URL = packageUrl('schemas/suite.schema.json');

const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as unknown as (ajv: Ajv2020) => Ajv2020;

let validator: ValidateFunction | undefined;

export function suiteSchemaErrors(data: unknown): ErrorObject[] {
  if (!validator) {
    const ajv = new Ajv2020({ allErrors: true, verbose: true, strict: true, allowUnionTypes: true });
    ajv.addKeyword({ keyword: 'errorMessage', schemaType: 'string' });
    addFormats(ajv);
    validator = ajv.compile(JSON.parse(readFileSync(SUITE_SCHEMA_URL, 'utf8')) as object);
  }
  return validator(data) ? [] : [...(validator.errors ?? [])];
}
