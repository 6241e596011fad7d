/**
 * `harness compare` end to end, without the CLI: load every report, pick the baseline, compare, write
 * compare.json / compare.html (and the Markdown summary when asked), and say whether the gate passed.
 */
import { open, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { UsageError } from '../errors/harness-errors.ts';
import { SecretRegistry } from '../http/redact.ts';
import { redactStrings } from '../report/redact-report.ts';
import type { Budget } from './budget.ts';
import { buildComparison, type LoadedReport } from './build-comparison.ts';
import { formatMarkdown } from './format-markdown.ts';
import { formatText } from './format-text.ts';
import { loadReport } from './load-report.ts';
import type { Comparison } from './model.ts';
import { writeComparison } from './write-outputs.ts';

export interface CompareOptions {
  files: readonly string[];
  /** A file among `files`, or a run id. @default the first file */
  baseline?: string;
  budgets?: readonly Budget[];
  outDir: string;
  summaryMd?: string;
  write: (text: string) => void;
  /**
   * Secrets to redact from every output (a library caller that holds the config). Without them only credential
   * positions are redacted (URL userinfo passwords, Basic credentials): reports written by the harness were
   * redacted when written, but a report from elsewhere may not have been.
   */
  secrets?: SecretRegistry;
}

export interface CompareOutcome {
  comparison: Comparison;
  /** False when a budget was exceeded. */
  passed: boolean;
}

export async function runCompare(options: CompareOptions): Promise<CompareOutcome> {
  if (options.files.length < 2) throw new UsageError(`compare needs at least two reports, got ${options.files.length}`);
  const reports: LoadedReport[] = [];
  for (const file of options.files) reports.push({ file, report: await loadReport(file) });
  // Redacted once, before any formatting: the console text, Markdown, compare.json and compare.html all come from it.
  const comparison = redactStrings(
    buildComparison({
      reports,
      baseline: baselineIndex(reports, options.baseline),
      ...(options.budgets ? { budgets: options.budgets } : {}),
    }),
    options.secrets ?? new SecretRegistry(),
  );
  options.write(formatText(comparison));
  const written = await writeComparison(comparison, options.outDir);
  options.write(`compare.json: ${written.json}\ncompare.html: ${written.html}\n`);
  if (options.summaryMd) {
    // Appended (earlier steps' summaries stay), after a blank line: glued to a previous line, the heading or the
    // first table row would be read as part of that line's paragraph.
    const before = await endOf(options.summaryMd);
    const gap = before.length === 0 ? '' : before.endsWith('\n\n') ? '' : before.endsWith('\n') ? '\n' : '\n\n';
    await writeFile(options.summaryMd, gap + formatMarkdown(comparison), { flag: 'a' });
    options.write(`summary: ${options.summaryMd}\n`);
  }
  return { comparison, passed: comparison.gate !== 'failed' };
}

/** The last two characters of a regular file ('' for none, or for anything else): all the gap above needs, read alone. */
async function endOf(file: string): Promise<string> {
  const handle = await open(file, 'r').catch(() => undefined);
  if (!handle) return '';
  try {
    const stats = await handle.stat();
    if (!stats.isFile() || stats.size === 0) return '';
    const tail = Buffer.alloc(Math.min(2, stats.size));
    await handle.read(tail, 0, tail.length, stats.size - tail.length);
    return tail.toString('latin1');
  } finally {
    await handle.close();
  }
}

/** --baseline names one of the compared files (as typed or resolved) or a run id. */
export function baselineIndex(reports: readonly LoadedReport[], baseline: string | undefined): number {
  if (baseline === undefined) return 0;
  const index = reports.findIndex((r) => r.file === baseline || resolve(r.file) === resolve(baseline) || r.report.run.id === baseline);
  if (index < 0) throw new UsageError(`--baseline: "${baseline}" is not one of the compared reports (give one of the files or its run id)`);
  return index;
}
