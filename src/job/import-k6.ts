/**
 * `harness import k6 SUMMARY.json`: a k6 summary (--summary-export or handleSummary data) → a report.json with one
 * imported `scenarios[]` entry, valid against schemas/report.schema.json, for `harness compare`. The report has no
 * checks (verdict not-evaluated) and says where it came from (`run.imported`); its times are the summary file's
 * modification time, the only clock reading the file carries.
 */
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, extname } from 'node:path';
import { ConfigError, FileNotFoundError } from '../errors.ts';
import { importK6Summary } from '../compare/k6-summary.ts';
import { reportIssues } from '../reporters/report-schema.ts';
import { buildReport, newRunId, type ReadReport } from '../reporters/report.ts';

export interface ImportK6Options {
  file: string;
  /** Scenario name, as compare lines scenarios up by name. @default the file name without extension */
  name?: string;
  /** Base URL the k6 test ran against (a summary does not say). @default "" (unknown) */
  target?: string;
  out: string;
  now?: Date;
}

export async function importK6(options: ImportK6Options): Promise<ReadReport> {
  let text: string;
  let modified: Date;
  try {
    [text, modified] = await Promise.all([readFile(options.file, 'utf8'), stat(options.file).then((s) => s.mtime)]);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new FileNotFoundError(options.file, code === 'ENOENT' ? 'k6 summary file not found' : `cannot read k6 summary (${code ?? String(err)})`);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new ConfigError([{ file: options.file, path: '', message: `not JSON: ${(err as Error).message}` }]);
  }
  const name = options.name ?? basename(options.file, extname(options.file));
  const imported = importK6Summary(doc, name);
  if ('problems' in imported) throw new ConfigError(imported.problems.map((p) => ({ ...p, file: options.file })));
  const { scenario, format } = imported;
  const finishedAt = modified.toISOString();
  const startedAt = scenario.durationMs !== undefined ? new Date(modified.getTime() - scenario.durationMs).toISOString() : finishedAt;
  const report: ReadReport = {
    ...buildReport({
      runId: newRunId(modified),
      startedAt,
      finishedAt,
      target: { baseUrl: options.target ?? '', embedded: false },
      imported: { tool: 'k6', format, file: options.file, importedAt: (options.now ?? new Date()).toISOString() },
    }),
    scenarios: [scenario],
  };
  // What compare will read must be a valid report: a mismatch here is a bug in the importer, not in the file.
  const issues = reportIssues(report);
  if (issues.length > 0) throw new Error(`imported report does not match schemas/report.schema.json: ${issues.map((i) => `${i.path} ${i.message}`).join('; ')}`);
  await mkdir(dirname(options.out), { recursive: true });
  await writeFile(options.out, `${JSON.stringify(report, null, 2)}\n`);
  return report;
}
