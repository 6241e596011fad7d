/** ramping-arrival-rate: the arrival rate ramps linearly from startRate through each stage's target (open model). */
import type { OpenExecutor } from './types.ts';
import { commonProblems, describeStages, durationMs, maxVUsProblems, positive, stageProblems, stageSegments, totalMs, type OptionOwners } from './common.ts';

export function rampingArrivalRate(owners: OptionOwners): OpenExecutor {
  const executor: OpenExecutor = {
    name: 'ramping-arrival-rate',
    model: 'open',
    options: ['startRate', 'timeUnit', 'stages', 'preAllocatedVUs', 'maxVUs', 'gracefulStop'],
    required: ['stages', 'preAllocatedVUs'],
    defaults: { startRate: 0, timeUnit: '1s', gracefulStop: '10s' },
    validate: (cfg) => [
      ...commonProblems(executor, cfg, owners),
      ...stageProblems(cfg.stages, 'iterations per timeUnit'),
      ...positive(cfg, 'preAllocatedVUs'),
      ...maxVUsProblems(cfg),
    ],
    describe: (cfg) => `arrival rate from ${cfg.startRate}/${cfg.timeUnit}: ${describeStages(cfg.stages, `/${cfg.timeUnit}`)} (maxVUs ${cfg.maxVUs ?? cfg.preAllocatedVUs})`,
    plannedDurationMs: (cfg) => totalMs(executor.rateSegments(cfg)),
    rateSegments: (cfg) => stageSegments(cfg.startRate ?? 0, cfg.stages ?? [], 1000 / durationMs(cfg.timeUnit, 1000)),
    maxInFlight: (cfg) => cfg.maxVUs ?? cfg.preAllocatedVUs ?? 1,
  };
  return executor;
}
