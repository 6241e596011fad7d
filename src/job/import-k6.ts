/**
 * `harness import k6 FILE...`: several k6 runners' samples (--out json / csv) merged into one report and judged
 * once (importK6Runs, src/k6/), or
 * `harness import k6 SUMMARY.json`: a k6 summary (--summary-export or handleSummary data) → a report.json with one
 * imported `scenarios[]` entry, valid against schemas/report.schema.json, for `harness compare`. The report has no
 * checks (verdict not-evaluated) and says where it came from (`run.imported`); its times are the summary file's
 * modification time, the only clock reading the file carries.
 */
import { mkdir, rename, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import { ConfigError, FileNotFoundError, UsageError } from '../errors/harness-errors.ts';
import { ExitCode, type ExitCodeValue } from '../errors/exit-codes.ts';
import { importK6Summary } from '../compare/k6-summary.ts';
import { SecretRegistry } from '../http/redact.ts';
import { mergeK6Runners, type MergeOutcome } from '../k6/merge.ts';
import { sniffFile } from '../k6/read-samples.ts';
import type { ScenarioOverrides } from '../load/scenario/overrides.ts';
import { loadScenarios } from '../load/scenario/select.ts';
import { exitCodeOfReport } from '../report/headline.ts';
import { reportIssues } from '../report/report-schema.ts';
import { buildReport, newRunId, type ReadReport, type Report } from '../report/report.ts';
import { writeReports, type ReportFileOptions } from './write-reports.ts';
import { readBounded } from '../util/read-bounded.ts';

export interface ImportK6Options {
  file: string;
  /** Scenario name, as compare lines scenarios up by name. @default the file name without extension */
  name?: string;
  /** Base URL the k6 test ran against (a summary does not say). @default "" (unknown) */
  target?: string;
  out: string;
  now?: Date;
}

/**
 * The largest k6 summary read (`--summary-export`, handleSummary's JSON): a few KB to a few MB with many groups and
 * checks. Counted in bytes read, so a device or an endless file is refused too (exit 2). @default 64 MiB
 */
export const MAX_SUMMARY_BYTES = 64 * 1024 * 1024;

export async function importK6(options: ImportK6Options): Promise<ReadReport> {
  let text: string;
  let modified: Date;
  try {
    const describe = (err: unknown): string => {
      const code = (err as NodeJS.ErrnoException).code;
      return code === 'ENOENT' ? 'k6 summary file not found' : `cannot read k6 summary (${code ?? String(err)})`;
    };
    const bytes = await readBounded(options.file, { maxBytes: MAX_SUMMARY_BYTES, what: 'k6 summaries' }, describe);
    text = bytes.toString('utf8');
    modified = (await stat(options.file)).mtime;
  } catch (err) {
    if (err instanceof FileNotFoundError) throw err;
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

export interface ImportK6RunsOptions {
  /** One k6 summary, or any number of runners' --out json / csv files (gzip'd or not). */
  files: string[];
  /** The scenario the script was exported from (name or file): thresholds and request names. Needed for samples. */
  scenario?: string;
  overrides?: ScenarioOverrides;
  name?: string;
  target?: string;
  /** report.json to write; report.html and junit.xml go beside it (samples). */
  out: string;
  now?: Date;
  /** Progress and warning lines (stderr in the CLI). */
  log?: (line: string) => void;
  progressEveryMs?: number;
  /** Options of the report files' printers. @default none */
  reportFiles?: ReportFileOptions;
}

export interface ImportK6RunsOutcome {
  report: ReadReport;
  kind: 'summary' | 'samples';
  exitCode: ExitCodeValue;
  /** The merge (samples only). */
  merge?: MergeOutcome;
}

/**
 * `harness import k6 FILE...`: one summary → the summary import above; runners' samples → one merged report
 * (report.json, report.html, junit.xml) with thresholds judged on the union and exit 99 when one is crossed, as k6.
 */
export async function importK6Runs(options: ImportK6RunsOptions): Promise<ImportK6RunsOutcome> {
  const log = options.log ?? (() => {});
  const sniffs = await Promise.all(options.files.map(async (file) => ({ file, ...(await sniffFile(file)) })));
  const raw = sniffs.filter((s) => s.kind === 'json' || s.kind === 'csv');
  if (options.files.length === 1 && raw.length === 0) {
    const report = await importK6({ file: options.files[0]!, out: options.out, ...(options.name ? { name: options.name } : {}), ...(options.target ? { target: options.target } : {}), ...(options.now ? { now: options.now } : {}) });
    return { report, kind: 'summary', exitCode: ExitCode.Certified };
  }
  const foreign = sniffs.filter((s) => s.kind !== 'json' && s.kind !== 'csv');
  if (foreign.length) {
    throw new ConfigError(
      foreign.map((s) => ({
        file: s.file,
        line: 1,
        path: '',
        message:
          s.kind === 'summary'
            ? 'a k6 summary holds percentiles, which cannot be merged with other runners: have every runner write its samples (k6 run --out json=FILE.json.gz) and import those'
            : `not k6 output (first line: ${JSON.stringify(s.firstLine.slice(0, 80))}); expected k6 --out json / --out csv files`,
      })),
    );
  }
  if (!options.scenario) throw new UsageError('--scenario: name the scenario the script was exported from (its thresholds are judged on the merged samples; k6 output does not list them all)');
  const [scenario] = loadScenarios([options.scenario], options.overrides ?? {});
  const named = options.name ? { ...scenario!, name: options.name } : scenario!;
  const started = Date.now();
  const merge = await mergeK6Runners({
    files: options.files,
    scenario: named,
    progressEveryMs: options.progressEveryMs ?? 2000,
    progress: (p) => {
      // Only long inputs talk: a file read in under a progress period says nothing until the summary.
      if (p.bytes < p.size) log(`reading ${p.file}: ${(p.bytes / 1e6).toFixed(0)} of ${(p.size / 1e6).toFixed(0)} MB, ${p.requests} requests, ${((Date.now() - started) / 1000).toFixed(0)} s`);
    },
  });
  for (const w of merge.warnings) log(`warning: ${w}`);
  const report: Report = buildReport({
    runId: newRunId(new Date(merge.finishedAt)),
    startedAt: merge.startedAt,
    finishedAt: merge.finishedAt,
    target: { baseUrl: options.target ?? '', embedded: false },
    imported: { tool: 'k6', format: 'samples', file: options.files[0]!, files: [...options.files], importedAt: (options.now ?? new Date()).toISOString() },
    scenarios: [merge.result],
  });
  const issues = reportIssues(report);
  if (issues.length > 0) throw new Error(`merged report does not match schemas/report.schema.json: ${issues.map((i) => `${i.path} ${i.message}`).join('; ')}`);
  const dir = dirname(options.out);
  await mkdir(dir, { recursive: true });
  await writeReports(report, dir, new SecretRegistry(), () => {}, options.reportFiles);
  if (basename(options.out) !== 'report.json') await rename(join(dir, 'report.json'), options.out);
  return { report, kind: 'samples', exitCode: exitCodeOfReport(report), merge };
}
