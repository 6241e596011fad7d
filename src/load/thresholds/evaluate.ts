/**
 * Thresholds against what was measured: at the end of a scenario, and — for `abortOnFail` ones — every second
 * during it. The left side's value is kept in the result (`actual`) so a report says by how much it crossed.
 */
import { percentileMs, statsMs } from '../metrics/histogram.ts';
import type { MetricSource } from '../metrics/recorder.ts';
import type { ThresholdResult } from '../result.ts';
import type { Operator, ParsedThreshold } from './parse.ts';

const round = (n: number): number => Math.round(n * 1e6) / 1e6;

export function actualValue(threshold: ParsedThreshold, source: MetricSource): number {
  const { aggregation, metric, name } = threshold;
  const seconds = Math.max(source.elapsedMs, 1) / 1000;
  switch (metric) {
    case 'iteration_duration':
    case 'http_req_duration': {
      // A mix's iteration is one request: its iteration_duration is http_req_duration.
      const histogram = metric === 'iteration_duration' && source.iterations ? source.iterations.histogram : source.histogram(name);
      if (aggregation.kind === 'p') return percentileMs(histogram, aggregation.p);
      if (aggregation.kind === 'med') return percentileMs(histogram, 50);
      const stats = statsMs(histogram);
      return aggregation.kind === 'avg' ? stats.avg : aggregation.kind === 'min' ? stats.min : stats.max;
    }
    case 'http_req_failed': {
      const c = source.counts(name);
      return c.requests === 0 ? 0 : round(c.failed / c.requests);
    }
    case 'rate_limited': {
      const c = source.counts(name);
      return c.requests === 0 ? 0 : round(c.rateLimited / c.requests);
    }
    case 'http_reqs': {
      const n = source.counts(name).requests;
      return aggregation.kind === 'count' ? n : round(n / seconds);
    }
    case 'iterations': {
      const n = source.iterations ? source.iterations.count : source.counts().requests;
      return aggregation.kind === 'count' ? n : round(n / seconds);
    }
    case 'dropped_iterations':
      return aggregation.kind === 'count' ? source.dropped : round(source.dropped / seconds);
  }
}

export function compare(actual: number, operator: Operator, value: number): boolean {
  switch (operator) {
    case '<':
      return actual < value;
    case '<=':
      return actual <= value;
    case '>':
      return actual > value;
    case '>=':
      return actual >= value;
    case '==':
    case '===':
      return actual === value;
    case '!=':
      return actual !== value;
  }
}

/**
 * One rule for requests that did not complete (README "Thresholds"): they count in http_req_duration at their
 * elapsed time — the open model records every failure from its intended send time to the moment it failed, both
 * engines record a timeout at its duration. Where a failed request has no elapsed time to count (a flow's step that
 * failed other than by a timeout), the latency metric would only hold the
 * requests that did complete, so a latency threshold over it fails instead of passing on what is left: a target
 * that resets every connection must not read "p(99)<500 ok (actual 0)".
 */
export function evaluateThreshold(threshold: ParsedThreshold, source: MetricSource): ThresholdResult {
  const actual = actualValue(threshold, source);
  let ok = compare(actual, threshold.operator, threshold.value);
  if (threshold.metric === 'http_req_duration' && source.histogram(threshold.name).totalCount < source.counts(threshold.name).requests) ok = false;
  return { metric: threshold.key, expr: threshold.expr, ok, actual };
}

/**
 * `unmeasured` names, for a threshold whose metric the source holds no samples of (an imported k6 output without
 * iteration samples), why it cannot be judged: that threshold is reported not evaluated and fails — it is never
 * judged on another metric, and never passes on nothing.
 */
export function evaluateThresholds(thresholds: readonly ParsedThreshold[], source: MetricSource, unmeasured?: (t: ParsedThreshold) => string | undefined): ThresholdResult[] {
  return thresholds.map((t) => {
    const why = unmeasured?.(t);
    return why === undefined ? evaluateThreshold(t, source) : { metric: t.key, expr: t.expr, ok: false, actual: 0, notEvaluated: why };
  });
}

/** The first abortOnFail threshold crossed so far (past its delayAbortEval), if any. */
export function abortingThreshold(thresholds: readonly ParsedThreshold[], source: MetricSource, elapsedMs: number): ThresholdResult | undefined {
  for (const t of thresholds) {
    if (!t.abortOnFail || elapsedMs < t.delayAbortEvalMs) continue;
    const result = evaluateThreshold(t, source);
    if (!result.ok) return result;
  }
  return undefined;
}
