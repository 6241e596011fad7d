/**
 * The numbers compare reads from one report: per-scenario metrics (from report.json `scenarios[]`, the load
 * engine's ScenarioResult) and the rate-limit summary. errorRate = (5xx answers + transport errors) / requests;
 * rate429 = 429 answers / requests.
 */
import type { Report, ScenarioReport } from '../reporters/report.ts';
import type { ComparedRun, ScenarioMetrics } from './model.ts';

export function scenarioMetrics(scenario: ScenarioReport): ScenarioMetrics {
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
  };
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
