/**
 * A history as series: one per label and scenario (p50, p95, rps, error rate per run) and one per label for the
 * conformance verdict, oldest run first, each with the runs where it changed (change-points.ts for the numbers;
 * any change of verdict for the verdict).
 */
import type { Verdict } from '../conformance/result.ts';
import { isImportedScenario, type ScenarioEntry } from '../report/report.ts';
import { changePoints, type ChangePoint, type ChangeOptions } from './change-points.ts';
import type { HistoryEntry } from './entry.ts';

export const METRICS = ['p50', 'p95', 'rps', 'errorRate'] as const;
export type SeriesMetric = (typeof METRICS)[number];

/** Smallest change reported per metric: 5 % of latency or throughput, 1 percentage point of errors. */
export const MIN_EFFECT: Record<SeriesMetric, ChangeOptions> = {
  p50: { minEffect: 0.05, effect: 'relative' },
  p95: { minEffect: 0.05, effect: 'relative' },
  rps: { minEffect: 0.05, effect: 'relative' },
  errorRate: { minEffect: 0.01, effect: 'absolute' },
};

export interface SeriesRun {
  runId: string;
  startedAt: string;
  commit?: string;
}

export interface MetricSeries {
  label: string;
  scenario: string;
  runs: SeriesRun[];
  /** Per metric, one value per run (null where a run did not measure it, e.g. a k6 import without error rate). */
  values: Record<SeriesMetric, Array<number | null>>;
  /** Per metric, the change points found (indices into `runs`). */
  changes: Record<SeriesMetric, ChangePoint[]>;
}

export interface VerdictSeries {
  label: string;
  runs: Array<SeriesRun & { verdict: Verdict }>;
  /** Indices of runs whose verdict differs from the run before. */
  changes: number[];
}

export const UNLABELLED = '(no label)';

export function labelOf(entry: HistoryEntry): string {
  return entry.meta.label ?? UNLABELLED;
}

function seriesRun(entry: HistoryEntry): SeriesRun {
  return { runId: entry.report.run.id, startedAt: entry.report.run.startedAt, ...(entry.meta.commit ? { commit: entry.meta.commit } : {}) };
}

export function verdictSeries(entries: readonly HistoryEntry[]): VerdictSeries[] {
  const byLabel = groupBy(entries, labelOf);
  return [...byLabel].map(([label, runs]) => {
    const points = runs.map((e) => ({ ...seriesRun(e), verdict: e.report.verdict }));
    const changes = points.flatMap((p, i) => (i > 0 && p.verdict !== points[i - 1]!.verdict ? [i] : []));
    return { label, runs: points, changes };
  });
}

export function metricSeries(entries: readonly HistoryEntry[]): MetricSeries[] {
  const out: MetricSeries[] = [];
  for (const [label, runs] of groupBy(entries, labelOf)) {
    const names: string[] = [];
    for (const e of runs) for (const s of e.report.scenarios ?? []) if (!names.includes(s.name)) names.push(s.name);
    for (const scenario of names) {
      const withIt = runs.filter((e) => e.report.scenarios?.some((s) => s.name === scenario));
      const picked = withIt.map((e) => pointOf(e.report.scenarios!.find((s) => s.name === scenario)!));
      const values = Object.fromEntries(METRICS.map((m) => [m, picked.map((p) => p[m])])) as MetricSeries['values'];
      const changes = Object.fromEntries(METRICS.map((m) => [m, changesOf(values[m], MIN_EFFECT[m])])) as MetricSeries['changes'];
      out.push({ label, scenario, runs: withIt.map(seriesRun), values, changes });
    }
  }
  return out;
}

/** Runs searched for change points: the newest this many of a series (the search is quadratic in its length). */
export const MAX_SEARCHED = 200;

/** Change points over the runs that measured the metric (the newest MAX_SEARCHED), mapped back to run indices. */
function changesOf(values: ReadonlyArray<number | null>, options: ChangeOptions): ChangePoint[] {
  const present = values.flatMap((v, i) => (v === null ? [] : [[v, i] as const])).slice(-MAX_SEARCHED);
  return changePoints(present.map(([v]) => v), options).map((c) => ({ ...c, index: present[c.index]![1] }));
}

/** The numbers a trend needs, read from the report's own summary (no histogram decoding). */
function pointOf(s: ScenarioEntry): Record<SeriesMetric, number | null> {
  if (isImportedScenario(s)) return { p50: s.latency.p50 ?? null, p95: s.latency.p95 ?? null, rps: s.rps ?? null, errorRate: null };
  const answered5xx = Object.entries(s.statusCodes).reduce((n, [code, count]) => (Number(code) >= 500 ? n + count : n), 0);
  const transport = Object.values(s.errors).reduce((n, count) => n + count, 0);
  return { p50: s.latency.p50, p95: s.latency.p95, rps: s.rps, errorRate: s.requests > 0 ? (answered5xx + transport) / s.requests : 0 };
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const item of items) map.set(key(item), [...(map.get(key(item)) ?? []), item]);
  return map;
}
