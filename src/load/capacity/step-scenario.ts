/** One step of `harness capacity`: the scenario's request mix at a constant arrival rate (src/job/capacity-job.ts runs the steps). */
import { formatDuration } from '../duration.ts';
import { withExecutorDefaults } from '../executors/registry.ts';
import type { Scenario } from '../scenario/types.ts';

/** The scenario at a constant rate (its mix, credential, timeouts and VUs kept; thresholds dropped). */
export function stepScenario(base: Scenario, rate: number, durationMs: number): Scenario {
  const maxVUs = Math.max(base.maxVUs ?? base.vus ?? 1, base.preAllocatedVUs ?? 1);
  return withExecutorDefaults({
    name: base.name,
    executor: 'constant-arrival-rate',
    credential: base.credential,
    requests: base.requests,
    // A flow scenario steps up its iterations per second.
    ...(base.flow ? { flow: base.flow } : {}),
    rateLimitedAsFailure: base.rateLimitedAsFailure,
    timeout: base.timeout,
    thresholds: {},
    rate,
    timeUnit: '1s',
    duration: formatDuration(durationMs),
    preAllocatedVUs: Math.min(maxVUs, base.preAllocatedVUs ?? maxVUs),
    maxVUs,
    gracefulStop: '5s',
    ...(base.workers !== undefined ? { workers: base.workers } : {}),
    ...(base.warmUp !== undefined ? { warmUp: base.warmUp } : {}),
  });
}
