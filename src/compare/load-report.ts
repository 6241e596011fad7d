/**
 * Reads a report.json named on the command line. A missing file is a usage error (exit 2); a file that is not
 * JSON or not a report is an invalid-report error (exit 104) listing every schema problem — never a stack trace.
 */
import { InvalidReportError } from '../errors/harness-errors.ts';
import { reportIssues } from '../report/report-schema.ts';
import type { ReadReport } from '../report/report.ts';
import { readBounded } from '../util/read-bounded.ts';

/**
 * The largest report.json read. An hour's load run with its per-second histograms is tens of MB; counted in bytes
 * read, so a device or an endless file is refused too (exit 2) instead of growing until V8's string limit. @default 128 MiB
 */
export const MAX_REPORT_BYTES = 128 * 1024 * 1024;

/** A harness report or one imported from k6 (`source: "k6"` scenarios): both are valid report.json. */
export async function loadReport(file: string): Promise<ReadReport> {
  const describe = (err: unknown): string => {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? 'report file not found' : `cannot read report file (${code ?? String(err)})`;
  };
  const text = (await readBounded(file, { maxBytes: MAX_REPORT_BYTES, what: 'report files' }, describe)).toString('utf8');
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
