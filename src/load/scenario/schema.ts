/**
 * The compiled validator for schemas/scenario.schema.json (the file is the one source of truth for the format
 * and its docs). Compiled once, on first use, with the same AJV settings as the config schema.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { SchemaNode } from '../../config/schema.ts';
import { packageUrl } from '../../package-root.ts';

export const SCENARIO_SCHEMA_ID = 'https://api-harness.example/schemas/scenario.json';
export const SCENARIO_SCHEMA_URL = packageUrl('schemas/scenario.schema.json');

const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as unknown as (ajv: Ajv2020) => Ajv2020;

let schema: SchemaNode | undefined;
let validator: ValidateFunction | undefined;

export function scenarioSchema(): SchemaNode {
  schema ??= JSON.parse(readFileSync(SCENARIO_SCHEMA_URL, 'utf8')) as SchemaNode;
  return schema;
}

export function scenarioSchemaErrors(data: unknown): ErrorObject[] {
  if (!validator) {
    const ajv = new Ajv2020({ allErrors: true, verbose: true, strict: true, allowUnionTypes: true });
    ajv.addKeyword({ keyword: 'errorMessage', schemaType: 'string' });
    addFormats(ajv);
    validator = ajv.compile(scenarioSchema());
  }
  return validator(data) ? [] : [...(validator.errors ?? [])];
}
