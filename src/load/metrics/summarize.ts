/** Recorder (live or merged) → the ScenarioResult numbers. Pure computation: printing is print-summary.ts. */
import type { LoopDelay, PercentilePoint, RateLimitExpectation, ScenarioResult, ThresholdResult, TimelinePoint, WarmUp } from '../result.ts';
import type { Scenario } from '../scenario/types.ts';
import { createCompactHistogram, encodeHistogram, mergeInto, percentileMs, summarizeLatency, type Histogram } from './histogram.ts';
import { generatorBound } from './generator-bound.ts';
import type { Recorder } from './recorder.ts';

export function timelineOf(recorder: Recorder): TimelinePoint[] {
  return recorder.timeline.map((s, t) => ({
    t,
    requests: s.requests,
    p50: percentileMs(s.histogram, 50),
    p99: percentileMs(s.histogram, 99),
    status2xx: s.status2xx,
    status4xx: s.status4xx,
    status5xx: s.status5xx,
    rateLimited: s.rateLimited,
    errors: s.errors,
  }));
}

/** Most blocks report.json keeps per scenario (`histograms.blocks`): an hour's soak is 600 blocks of 6 s. */
export const MAX_BLOCKS = 600;

/**
 * The timeline's latency histograms in blocks of whole seconds (1 s unless the run was longer than MAX_BLOCKS s),
 * for compare's correlation-robust intervals. The per-second histograms are the compact kind (2 digits).
 */
export function timeBlocks(recorder: Recorder): { seconds: number; histograms: string[] } {
  const timeline = recorder.timeline;
  const seconds = Math.max(1, Math.ceil(timeline.length / MAX_BLOCKS));
  const histograms: string[] = [];
  for (let i = 0; i < timeline.length; i += seconds) {
    const group = timeline.slice(i, i + seconds);
    if (group.length === 1) {
      histograms.push(encodeHistogram((group[0] as (typeof timeline)[number]).histogram));
      continue;
    }
    const merged = createCompactHistogram();
    for (const s of group) mergeInto(merged, s.histogram);
    histograms.push(encodeHistogram(merged));
  }
  return { seconds, histograms };
}

/** Where the percentile curve is sampled: dense in the tail, which a log axis of 1 / (1 - p) spreads out. */
export const CURVE_PERCENTILES: readonly number[] = [0, 10, 25, 50, 75, 90, 95, 97.5, 99, 99.5, 99.9, 99.95, 99.99, 99.999, 100];

/** The HDR percentile curve of a histogram (empty when it holds no value). */
export function percentileCurve(histogram: Histogram): PercentilePoint[] {
  if (histogram.totalCount === 0) return [];
  return CURVE_PERCENTILES.map((percentile) => ({ percentile, latencyMs: percentileMs(histogram, percentile) }));
}

/** The scenario as it ran, for `config`: what the file said plus defaults, without the source path. */
export function scenarioConfig(scenario: Scenario, description: string): Record<string, unknown> {
  const { source: _source, ...rest } = scenario;
  return { ...structuredClone(rest), description: scenario.description ?? description };
}

export function buildScenarioResult(
  scenario: Scenario,
  recorder: Recorder,
  thresholds: ThresholdResult[],
  description: string,
  rateLimitExpectation?: RateLimitExpectation,
  generator: { workers?: number; warmUp?: WarmUp } = {},
): ScenarioResult {
  const bound = generatorBound(recorder.timeline);
  const all = recorder.counts();
  const byName: ScenarioResult['byName'] = {};
  for (const name of recorder.names) {
    const c = recorder.counts(name);
    byName[name] = { requests: c.requests, latency: summarizeLatency(recorder.histogram(name)), statusCodes: c.statusCodes };
  }
  const seconds = recorder.elapsedMs / 1000;
  return {
    name: scenario.name,
    executor: scenario.executor,
    config: scenarioConfig(scenario, description),
    requests: all.requests,
    rps: seconds > 0 ? Math.round((all.requests / seconds) * 10) / 10 : 0,
    durationMs: Math.round(recorder.elapsedMs),
    dropped: recorder.dropped,
    latency: summarizeLatency(recorder.histogram()),
    percentiles: percentileCurve(recorder.histogram()),
    byName,
    statusCodes: all.statusCodes,
    rateLimited: all.rateLimited,
    errors: Object.fromEntries(recorder.errorCodes),
    thresholds,
    timeline: timelineOf(recorder),
    ...(rateLimitExpectation ? { rateLimitExpectation } : {}),
    histograms: {
      unit: 'us',
      all: encodeHistogram(recorder.histogram()),
      byName: Object.fromEntries(recorder.names.map((n) => [n, encodeHistogram(recorder.histogram(n))])),
      blocks: timeBlocks(recorder),
    },
    ...(generator.workers !== undefined ? { workers: generator.workers } : {}),
    ...(generator.warmUp ? { warmUp: generator.warmUp } : {}),
    ...(recorder.timeline.length > 0 ? { loopDelay: loopDelayOf(recorder) } : {}),
    ...(bound ? { generatorBound: bound } : {}),
    ...(recorder.iterations
      ? {
          iterations: {
            count: recorder.iterations.count,
            failed: recorder.iterations.failed,
            rate: seconds > 0 ? Math.round((recorder.iterations.count / seconds) * 10) / 10 : 0,
            duration: summarizeLatency(recorder.iterations.histogram),
            failedBy: Object.fromEntries(recorder.iterations.failedBy),
          },
        }
      : {}),
  };
}

/** The longest event-loop stall of each second (0 under 1 ms: the probe ignores timer jitter), summarized. */
function loopDelayOf(recorder: Recorder): LoopDelay {
  const seconds = recorder.timeline.map((s) => s.loopDelayMs).sort((a, b) => a - b);
  const at = (q: number): number => seconds[Math.min(seconds.length - 1, Math.floor(q * seconds.length))] ?? 0;
  const round = (n: number): number => Math.round(n * 100) / 100;
  return { secondMedianMs: round(at(0.5)), secondP90Ms: round(at(0.9)), worstMs: round(seconds[seconds.length - 1] ?? 0) };
}
