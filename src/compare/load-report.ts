/**
 * Reads a report.json named on the command line. A missing file is a usage error (exit 2); a file that is not
 * JSON or not a report is an invalid-report error (exit 104) listing every schema problem — never a stack trace.
 */
import { readFile } from 'node:fs/promises';
import { FileNotFoundError, InvalidReportError } from '../errors.ts';
import { reportIssues } from '../reporters/report-schema.ts';
import type { ReadReport } from '../reporters/report.ts';

/** A harness report or one imported from k6 (`source: "k6"` scenarios): both are valid report.json. */
export async function loadReport(file: string): Promise<ReadReport> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new FileNotFoundError(file, code === 'ENOENT' ? 'report file not found' : `cannot read report file (${code ?? String(err)})`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new InvalidReportError(file, [`not JSON: ${(err as Error).message}`]);
  }
  const issues = reportIssues(value);
  if (issues.length > 0) throw new InvalidReportError(file, issues.map((i) => `${i.path || '/'}: ${i.message}`));
  return value as ReadReport;
}
