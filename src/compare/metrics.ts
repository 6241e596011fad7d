/** The numbers compare reads from one report: per-scenario metrics and the rate-limit summary. */
import type { Report, ScenarioReport } from '../reporters/report.ts';
import type { ComparedRun, ScenarioMetrics } from './model.ts';

export function scenarioMetrics(scenario: ScenarioReport): ScenarioMetrics {
  return {
    p50Ms: scenario.latency.p50Ms,
    p95Ms: scenario.latency.p95Ms,
    p99Ms: scenario.latency.p99Ms,
    rps: scenario.requests.rps,
    errorRate: scenario.errorRate,
    rate429: scenario.rateLimited.rate,
    dropped: scenario.requests.dropped,
    percentiles: scenario.percentiles,
  };
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
            observed: rl.observed,
            retryAfter: { ...(rl.retryAfter.claimedS !== undefined ? { claimedS: rl.retryAfter.claimedS } : {}), actualRecoveryS: rl.retryAfter.actualRecoveryS },
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
