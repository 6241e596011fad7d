/**
 * Validates a parsed report.json against schemas/report.schema.json. `harness compare` reads reports written by
 * other runs (maybe other harness versions, maybe edited by hand), so it checks them before trusting any field.
 */
import type { ErrorObject, ValidateFunction } from 'ajv';
import { fixedValidator } from '../config/fixed-schemas.ts';
import * as generated from '../config/generated/report-validator.ts';
import type { Report } from './report.ts';

export const REPORT_SCHEMA_ID = 'https://api-harness.example/schemas/report.json';

let compiled: ValidateFunction | undefined;

// Generated ahead of time from schemas/report.schema.json and the API schemas it refers to (src/config/fixed-schemas.ts).
function validator(): ValidateFunction {
  compiled ??= fixedValidator('report', generated);
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
