/**
 * The validator for schemas/scenario.schema.json (the file is the one source of truth for the format and its
 * docs), generated from it ahead of time with the same AJV settings as the config schema (src/config/fixed-schemas.ts).
 */
import { readFileSync } from 'node:fs';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { fixedValidator } from '../../config/fixed-schemas.ts';
import * as generated from '../../config/generated/scenario-validator.ts';
import type { SchemaNode } from '../../config/schema.ts';
import { packageUrl } from '../../package-root.ts';

export const SCENARIO_SCHEMA_ID = 'https://api-harness.example/schemas/scenario.json';
export const SCENARIO_SCHEMA_URL = packageUrl('schemas/scenario.schema.json');

let schema: SchemaNode | undefined;
let validator: ValidateFunction | undefined;

export function scenarioSchema(): SchemaNode {
  schema ??= JSON.parse(readFileSync(SCENARIO_SCHEMA_URL, 'utf8')) as SchemaNode;
  return schema;
}

export function scenarioSchemaErrors(data: unknown): ErrorObject[] {
  validator ??= fixedValidator('scenario', generated);
  return validator(data) ? [] : [...(validator.errors ?? [])];
}
