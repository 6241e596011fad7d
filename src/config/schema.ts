/**
 * The validator for schemas/harness-config.schema.json. The JSON file is the single source of truth for the file
 * format and its docs; its validator is generated from it ahead of time (src/config/fixed-schemas.ts).
 */
import { readFileSync } from 'node:fs';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { packageUrl } from '../package-root.ts';
import { fixedValidator } from './fixed-schemas.ts';
import * as generated from './generated/harness-config-validator.ts';

export const HARNESS_CONFIG_SCHEMA_ID = 'https://api-harness.example/schemas/harness-config.json';
export const HARNESS_CONFIG_SCHEMA_URL = packageUrl('schemas/harness-config.schema.json');

/** The subset of JSON Schema this project's config schema uses; enough to walk it without `any`. */
export interface SchemaNode {
  type?: string;
  description?: string;
  properties?: Record<string, SchemaNode>;
  additionalProperties?: boolean | SchemaNode;
  items?: SchemaNode;
  enum?: readonly unknown[];
  /** Project keyword: the message shown when `pattern` or `format` fails (AJV only carries it). */
  errorMessage?: string;
  [keyword: string]: unknown;
}

let schema: SchemaNode | undefined;
let validator: ValidateFunction | undefined;

export function harnessConfigSchema(): SchemaNode {
  schema ??= JSON.parse(readFileSync(HARNESS_CONFIG_SCHEMA_URL, 'utf8')) as SchemaNode;
  return schema;
}

/** Every schema violation of `data` (an empty list when it is valid). */
export function schemaErrors(data: unknown): ErrorObject[] {
  validator ??= fixedValidator('harness-config', generated);
  return validator(data) ? [] : [...(validator.errors ?? [])];
}

/** The schema node that describes the value at `path`, or undefined when the path leaves the schema. */
export function schemaAt(path: readonly (string | number)[]): SchemaNode | undefined {
  let node: SchemaNode | undefined = harnessConfigSchema();
  for (const segment of path) {
    if (!node) return undefined;
    if (typeof segment === 'number') node = node.items;
    else {
      const extra: boolean | SchemaNode | undefined = node.additionalProperties;
      node = node.properties?.[segment] ?? (typeof extra === 'object' ? extra : undefined);
    }
  }
  return node;
}

/**
 * For interpolation: the text a plain scalar got from `${VAR}` as the type the schema wants at `path`
 * (`timeoutMs: ${T:-5000}` is the number 5000). Text that does not fit stays a string, and validation then
 * reports it with the usual message.
 */
export function coerceToSchemaType(path: readonly (string | number)[], text: string): unknown {
  const type = schemaAt(path)?.type;
  if (type === 'integer' && /^-?\d+$/.test(text)) return Number(text);
  if (type === 'number' && text.trim() !== '' && Number.isFinite(Number(text))) return Number(text);
  if (type === 'boolean' && (text === 'true' || text === 'false')) return text === 'true';
  return text;
}
