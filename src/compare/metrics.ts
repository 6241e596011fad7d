/**
 * The numbers compare reads from one report: per-scenario metrics (from report.json `scenarios[]`, the load
 * engine's ScenarioResult) and the rate-limit summary. errorRate = (5xx answers + transport errors) / requests;
 * rate429 = 429 answers / requests. An entry imported from k6 gives only what k6 reported (k6Metrics).
 */
import { isImportedScenario, type ImportedScenario, type ReadReport as Report, type ScenarioEntry } from '../report/report.ts';
import type { ScenarioReport } from '../report/report-load.ts';
import type { ComparedRun, ScenarioMetrics } from './model.ts';
import { blockCounts, decodeHistogram, percentileInterval, type BlockInput } from './percentile-interval.ts';

/**
 * k6's numbers under compare's names. errorRate and rate429 stay absent: k6's http_req_failed counts statuses
 * outside expected_response (4xx too), not compare's 5xx + transport errors, and k6 does not count 429s apart.
 */
function k6Metrics(scenario: ImportedScenario): ScenarioMetrics {
  const { latency } = scenario;
  return {
    source: 'k6',
    ...(latency.p50 !== undefined ? { p50Ms: latency.p50 } : {}),
    ...(latency.p95 !== undefined ? { p95Ms: latency.p95 } : {}),
    ...(latency.p99 !== undefined ? { p99Ms: latency.p99 } : {}),
    ...(scenario.rps !== undefined ? { rps: scenario.rps } : {}),
    ...(scenario.dropped !== undefined ? { dropped: scenario.dropped } : {}),
    percentiles: [],
  };
}

export function scenarioMetrics(scenario: ScenarioEntry): ScenarioMetrics {
  if (isImportedScenario(scenario)) return k6Metrics(scenario);
  const answered5xx = Object.entries(scenario.statusCodes).reduce((n, [code, count]) => (Number(code) >= 500 ? n + count : n), 0);
  const transportErrors = Object.values(scenario.errors).reduce((n, count) => n + count, 0);
  return {
    p50Ms: scenario.latency.p50,
    p95Ms: scenario.latency.p95,
    p99Ms: scenario.latency.p99,
    rps: scenario.rps,
    errorRate: share(answered5xx + transportErrors, scenario.requests),
    rate429: share(scenario.rateLimited, scenario.requests),
    dropped: scenario.dropped,
    percentiles: scenario.percentiles,
    ...intervalsOf(scenario),
    ...cleanIntervalsOf(scenario),
    ...(scenario.loopDelay ? { loopDelayMs: scenario.loopDelay.secondMedianMs } : {}),
    ...(scenario.generatorBound
      ? {
          generatorBound: {
            seconds: scenario.generatorBound.seconds.length,
            ofSeconds: scenario.timeline.length,
            worstLoopDelayMs: scenario.generatorBound.worstLoopDelayMs,
            worstLateShare: scenario.generatorBound.worstLateShare,
            lateStartMs: scenario.generatorBound.bounds.lateStartMs,
          },
        }
      : {}),
  };
}

/**
 * Confidence intervals from the encoded HDR histograms, when the report has them and they decode: the whole run's
 * for the value and the bounds, the blocks of time (`histograms.blocks`) for how wide (percentile-interval.ts).
 */
function intervalsOf(scenario: ScenarioReport): Pick<ScenarioMetrics, 'samples' | 'intervals'> {
  const encoded = scenario.histograms?.all;
  if (!encoded) return {};
  let histogram;
  let blocks: BlockInput | undefined;
  try {
    histogram = decodeHistogram(encoded);
  } catch {
    return {}; // a damaged histogram: the budget falls back to the point estimates and says so
  }
  const stored = scenario.histograms?.blocks;
  if (stored) {
    try {
      blocks = { seconds: stored.seconds, counts: stored.histograms.map(blockCounts) };
    } catch {
      blocks = undefined; // damaged blocks: the independent-samples interval, and the detail says so
    }
  }
  return {
    samples: histogram.totalCount,
    intervals: { p50: percentileInterval(histogram, 50, blocks), p95: percentileInterval(histogram, 95, blocks), p99: percentileInterval(histogram, 99, blocks) },
  };
}

/**
 * A generator-bound run's intervals over the seconds its generator kept up in (ScenarioMetrics.cleanIntervals):
 * the per-second histograms of every other second, the bound seconds and the one after each left out. Absent
 * when the run was not generator-bound, its blocks are not per second, or fewer than half its seconds remain.
 */
function cleanIntervalsOf(scenario: ScenarioReport): Pick<ScenarioMetrics, 'cleanIntervals'> {
  const stored = scenario.histograms?.blocks;
  const bound = scenario.generatorBound?.seconds;
  if (!stored || !bound || bound.length === 0 || stored.seconds !== 1) return {};
  const left = new Set(bound.flatMap((t) => [t, t + 1]));
  const kept = stored.histograms.filter((_, t) => !left.has(t));
  if (kept.length < 2 || kept.length * 2 < stored.histograms.length) return {};
  try {
    const histogram = decodeHistogram(kept[0]!);
    for (const encoded of kept.slice(1)) histogram.add(decodeHistogram(encoded));
    const blocks: BlockInput = { seconds: 1, counts: kept.map(blockCounts) };
    return {
      cleanIntervals: {
        seconds: kept.length,
        ofSeconds: stored.histograms.length,
        intervals: { p50: percentileInterval(histogram, 50, blocks), p95: percentileInterval(histogram, 95, blocks), p99: percentileInterval(histogram, 99, blocks) },
      },
    };
  } catch {
    return {}; // damaged blocks: the generator-bound rule alone decides
  }
}

/** part / whole, 0 when nothing was sent (a scenario with no requests has no rate to regress). */
function share(part: number, whole: number): number {
  return whole > 0 ? part / whole : 0;
}

/** `label` is chosen by the caller (it must be unique among the compared runs). */
export function comparedRun(report: Report, file: string, label: string): ComparedRun {
  const rl = report.rateLimit;
  return {
    label,
    file,
    runId: report.run.id,
    startedAt: report.run.startedAt,
    target: report.run.target.baseUrl,
    verdict: report.verdict,
    summary: report.summary,
    ...(rl
      ? {
          rateLimit: {
            headerStyle: rl.headerStyle,
            ...(rl.policyClaimed ? { policyClaimed: rl.policyClaimed } : {}),
            ...(rl.observed ? { observed: rl.observed } : {}),
            retryAfter: {
              ...(rl.retryAfter.claimedS !== undefined ? { claimedS: rl.retryAfter.claimedS } : {}),
              ...(rl.retryAfter.actualRecoveryS !== undefined ? { actualRecoveryS: rl.retryAfter.actualRecoveryS } : {}),
            },
            isolation: rl.isolation,
          },
        }
      : {}),
  };
}

/** Run ids as labels; a run id seen twice (the same report given twice, a copied file) gets #2, #3. */
export function uniqueLabels(runIds: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return runIds.map((id) => {
    const n = (seen.get(id) ?? 0) + 1;
    seen.set(id, n);
    return n === 1 ? id : `${id}#${n}`;
  });
}
