/**
 * Validates a parsed report.json against schemas/report.schema.json. `harness compare` reads reports written by
 * other runs (maybe other harness versions, maybe edited by hand), so it checks them before trusting any field.
 */
import { readFileSync } from 'node:fs';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { createAjv } from '../schemas/registry.ts';
import type { Report } from './report.ts';
import { packageUrl } from '../package-root.ts';

export const REPORT_SCHEMA_ID = 'https://api-harness.example/schemas/report.json';
const SCHEMA_FILE = packageUrl('schemas/report.schema.json');

let compiled: ValidateFunction | undefined;

function validator(): ValidateFunction {
  compiled ??= createAjv([JSON.parse(readFileSync(SCHEMA_FILE, 'utf8')) as object]).getSchema(REPORT_SCHEMA_ID);
  if (!compiled) throw new Error(`schemas/report.schema.json does not declare $id ${REPORT_SCHEMA_ID}`);
  return compiled;
}

export interface ReportIssue {
  /** JSON pointer into the document, e.g. `/checks/3/status`; empty for the root. */
  path: string;
  message: string;
}

/** Every schema problem of `value` (empty when it is a valid report). */
export function reportIssues(value: unknown): ReportIssue[] {
  const validate = validator();
  if (validate(value)) return [];
  return (validate.errors ?? []).map(toIssue);
}

export function isReport(value: unknown): value is Report {
  return reportIssues(value).length === 0;
}

function toIssue(error: ErrorObject): ReportIssue {
  const extra =
    error.keyword === 'additionalProperties'
      ? ` "${String((error.params as { additionalProperty?: string }).additionalProperty)}"`
      : error.keyword === 'enum'
        ? ` (${((error.params as { allowedValues?: unknown[] }).allowedValues ?? []).map((v) => JSON.stringify(v)).join(', ')})`
        : '';
  return { path: error.instancePath, message: `${error.message ?? error.keyword}${extra}` };
}
