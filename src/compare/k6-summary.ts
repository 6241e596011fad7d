/**
 * A k6 end-of-test summary → one report.json `scenarios[]` entry (ImportedScenario), so `harness compare` puts a
 * k6 run beside the harness's own runs. Two documented shapes are read (grafana.com/docs/k6, "End of test"):
 *  - `k6 run --summary-export FILE`: `metrics.<name>` holds the statistics flat (trend: avg, min, med, max, p(N);
 *    rate: value, passes, fails; counter: count, rate) and `thresholds: {expr: boolean}` where — as k6 documents
 *    (grafana/k6#1498) — `true` means the threshold FAILED;
 *  - the data object handleSummary() receives, written with JSON.stringify: `metrics.<name>.type` and `.values`,
 *    `thresholds: {expr: {ok}}`, and `state.testRunDurationMs`.
 * Only what the summary holds is taken; a number k6 did not report stays absent (never computed, never guessed).
 */
import type { ConfigIssue } from '../errors/harness-errors.ts';
import type { ImportedLatency, ImportedScenario, ImportedThreshold } from '../report/report-load.ts';

type Stats = Record<string, unknown>;
interface Metric {
  stats: Stats;
  thresholds: Array<{ expr: string; ok: boolean }>;
}

export interface K6Import {
  scenario: ImportedScenario;
  format: ImportedScenario['format'];
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** summaryTrendStats key → ImportedLatency key. */
const TREND_KEYS: Record<string, keyof ImportedLatency> = { avg: 'avg', min: 'min', med: 'p50', 'p(50)': 'p50', 'p(90)': 'p90', 'p(95)': 'p95', 'p(99)': 'p99', 'p(99.9)': 'p999', 'p(99.99)': 'p9999', max: 'max' };

function latencyOf(stats: Stats): ImportedLatency {
  const out: ImportedLatency = {};
  for (const [key, target] of Object.entries(TREND_KEYS)) {
    const value = num(stats[key]);
    if (value !== undefined && out[target] === undefined) out[target] = Math.max(0, value);
  }
  return out;
}

/** Reads one metric of either shape; `problems` collects what does not fit the documented shapes. */
function readMetric(name: string, raw: unknown, format: ImportedScenario['format'], problems: ConfigIssue[]): Metric | undefined {
  if (!isRecord(raw)) {
    problems.push({ path: `metrics.${name}`, message: 'expected an object' });
    return undefined;
  }
  const stats = format === 'handle-summary' ? raw.values : raw;
  if (!isRecord(stats)) {
    problems.push({ path: `metrics.${name}.values`, message: 'expected an object of statistics' });
    return undefined;
  }
  const thresholds: Metric['thresholds'] = [];
  if (raw.thresholds !== undefined) {
    if (!isRecord(raw.thresholds)) problems.push({ path: `metrics.${name}.thresholds`, message: 'expected an object' });
    else {
      for (const [expr, result] of Object.entries(raw.thresholds)) {
        if (format === 'summary-export' && typeof result === 'boolean') thresholds.push({ expr, ok: !result });
        else if (format === 'handle-summary' && isRecord(result) && typeof result.ok === 'boolean') thresholds.push({ expr, ok: result.ok });
        else problems.push({ path: `metrics.${name}.thresholds.${expr}`, message: format === 'summary-export' ? 'expected true (failed) or false (passed)' : 'expected {"ok": true|false}' });
      }
    }
  }
  return { stats, thresholds };
}

/** The statistic an expression's left side names (`p(95)<500` → stats["p(95)"]), when the summary has it. */
function actualOf(expr: string, stats: Stats): number | undefined {
  const left = /^\s*(avg|min|max|med|count|rate|value|p\(\d+(?:\.\d+)?\))\s*(?:[<>!=]=?=?)/.exec(expr)?.[1];
  if (!left) return undefined;
  // A rate is "value" in --summary-export and "rate" in handleSummary.
  return num(stats[left]) ?? (left === 'rate' ? num(stats.value) : undefined);
}

export function detectFormat(doc: Record<string, unknown>): ImportedScenario['format'] {
  const metrics = isRecord(doc.metrics) ? Object.values(doc.metrics) : [];
  return metrics.some((m) => isRecord(m) && typeof m.type === 'string' && isRecord(m.values)) ? 'handle-summary' : 'summary-export';
}

/**
 * @returns the scenario, or the problems that make `doc` not a k6 summary of an HTTP test (paths into the file)
 */
export function importK6Summary(doc: unknown, name: string): K6Import | { problems: ConfigIssue[] } {
  if (!isRecord(doc) || !isRecord(doc.metrics)) return { problems: [{ path: 'metrics', message: 'not a k6 summary: no "metrics" object (expected a --summary-export file or handleSummary data)' }] };
  const format = detectFormat(doc);
  const problems: ConfigIssue[] = [];
  const metrics = new Map<string, Metric>();
  for (const [key, raw] of Object.entries(doc.metrics)) {
    const metric = readMetric(key, raw, format, problems);
    if (metric) metrics.set(key, metric);
  }
  const duration = metrics.get('http_req_duration');
  const reqs = metrics.get('http_reqs');
  if (!duration && !reqs) problems.push({ path: 'metrics', message: 'no http_reqs or http_req_duration metric: not the summary of an HTTP test' });
  if (problems.length > 0) return { problems };

  const byName: NonNullable<ImportedScenario['byName']> = {};
  const thresholds: ImportedThreshold[] = [];
  for (const [key, metric] of metrics) {
    const tag = /^http_req_duration\{name:(.+)\}$/.exec(key)?.[1];
    if (tag) byName[tag] = { latency: latencyOf(metric.stats) };
    for (const t of metric.thresholds) {
      const actual = actualOf(t.expr, metric.stats);
      thresholds.push({ metric: key, expr: t.expr, ok: t.ok, ...(actual !== undefined ? { actual } : {}) });
    }
  }
  const state = isRecord(doc.state) ? doc.state : {};
  const rateOf = (m: Metric | undefined) => num(m?.stats.rate) ?? num(m?.stats.value);
  const optional = {
    requests: num(reqs?.stats.count),
    rps: num(reqs?.stats.rate),
    iterations: num(metrics.get('iterations')?.stats.count),
    dropped: num(metrics.get('dropped_iterations')?.stats.count),
    failedRate: rateOf(metrics.get('http_req_failed')),
    checksRate: rateOf(metrics.get('checks')),
    durationMs: num(state.testRunDurationMs),
  };
  const scenario: ImportedScenario = {
    name,
    source: 'k6',
    format,
    ...Object.fromEntries(Object.entries(optional).filter(([, v]) => v !== undefined)),
    latency: duration ? latencyOf(duration.stats) : {},
    ...(Object.keys(byName).length > 0 ? { byName } : {}),
    thresholds,
  };
  return { scenario, format };
}
