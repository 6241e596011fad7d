/**
 * `harness history DIR`: the history as series with their change points (series.ts), printed as text and written
 * as trend.json and a self-contained trend.html (the report pages' template, src/reporters/html/page.ts): the
 * verdict timeline first, newest run first, then one chart per metric with the change points marked.
 */
import { writeJsonAndPage, type WrittenOutputs } from '../compare/write-outputs.ts';
import { SecretRegistry } from '../http/redact.ts';
import { renderPage } from '../reporters/html/page.ts';
import { redactStrings } from '../report/redact-report.ts';
import { MIN_SEGMENT } from './change-points.ts';
import type { SkippedFile } from './entry.ts';
import type { History } from './read-history.ts';
import { METRICS, metricSeries, verdictSeries, type MetricSeries, type SeriesMetric, type VerdictSeries } from './series.ts';

export const TREND_SCHEMA_VERSION = 1;

export interface Trend {
  schemaVersion: typeof TREND_SCHEMA_VERSION;
  generatedAt: string;
  dir: string;
  runs: number;
  skipped: SkippedFile[];
  verdicts: VerdictSeries[];
  series: MetricSeries[];
}

export function buildTrend(history: History, now = new Date()): Trend {
  return redactStrings(
    {
      schemaVersion: TREND_SCHEMA_VERSION,
      generatedAt: now.toISOString(),
      dir: history.dir,
      runs: history.entries.length,
      skipped: history.skipped,
      verdicts: verdictSeries(history.entries),
      series: metricSeries(history.entries),
    },
    new SecretRegistry(),
  );
}

const UNIT: Record<SeriesMetric, (n: number) => string> = {
  p50: (n) => `${round(n)} ms`,
  p95: (n) => `${round(n)} ms`,
  rps: (n) => `${round(n)} req/s`,
  errorRate: (n) => `${round(n * 100)} %`,
};

export function formatTrend(trend: Trend): string {
  const out = [`history: ${trend.dir}: ${trend.runs} run${trend.runs === 1 ? '' : 's'}`];
  if (trend.skipped.length > 0) out.push(`skipped ${trend.skipped.length} file${trend.skipped.length === 1 ? '' : 's'}:`, ...trend.skipped.map((s) => `  ${s.file}: ${s.why}`));
  const few = 2 * MIN_SEGMENT;
  for (const v of trend.verdicts) {
    const latest = v.runs.at(-1)!;
    const changes = v.changes.map((i) => `run ${i + 1} (${who(v.runs[i]!)}): ${v.runs[i - 1]!.verdict} → ${v.runs[i]!.verdict}`);
    out.push('', `label "${v.label}": ${v.runs.length} run${v.runs.length === 1 ? '' : 's'}, latest verdict ${latest.verdict} (${who(latest)})`);
    out.push(`  verdict: ${changes.length > 0 ? `changed at ${changes.join('; ')}` : v.runs.length < 2 ? 'one run: no change can be seen yet' : 'unchanged'}`);
    for (const s of trend.series.filter((x) => x.label === v.label)) {
      out.push(`  scenario "${s.scenario}" (${s.runs.length} run${s.runs.length === 1 ? '' : 's'}):`);
      if (s.runs.length < few) {
        out.push(`    cannot decide yet: change points need at least ${few} runs of a series, it has ${s.runs.length}`);
        continue;
      }
      for (const m of METRICS) {
        const found = s.changes[m].map((c) => `run ${c.index + 1} (${who(s.runs[c.index]!)}): ${UNIT[m](c.before)} → ${UNIT[m](c.after)} (p ${round(c.p, 4)})`);
        out.push(`    ${m}: ${found.length > 0 ? `changed at ${found.join('; ')}` : `no change (latest ${lastOf(s.values[m], UNIT[m])})`}`);
      }
    }
  }
  return `${out.join('\n')}\n`;
}

export function writeTrend(trend: Trend, outDir: string): Promise<WrittenOutputs> {
  return writeJsonAndPage(outDir, 'trend', trend, trendHtml);
}

export function trendHtml(trend: Trend): string {
  return renderPage({ kind: 'trend', title: `Harness trend: ${trend.dir}`, data: trend });
}

function who(run: { runId: string; commit?: string }): string {
  return run.commit ? `${run.runId} @ ${run.commit.slice(0, 7)}` : run.runId;
}

function lastOf(values: ReadonlyArray<number | null>, unit: (n: number) => string): string {
  const last = [...values].reverse().find((v) => v !== null);
  return last === undefined || last === null ? 'not measured' : unit(last);
}

function round(n: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}
