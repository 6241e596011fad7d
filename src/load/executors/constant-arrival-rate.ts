/** constant-arrival-rate: `rate` arrivals per `timeUnit`, evenly spaced, for `duration` (open model). */
import type { OpenExecutor } from './types.ts';
import { commonProblems, durationMs, maxVUsProblems, positive, type OptionOwners } from './common.ts';

export function constantArrivalRate(owners: OptionOwners): OpenExecutor {
  const executor: OpenExecutor = {
    name: 'constant-arrival-rate',
    model: 'open',
    options: ['rate', 'timeUnit', 'duration', 'preAllocatedVUs', 'maxVUs', 'gracefulStop'],
    required: ['rate', 'duration', 'preAllocatedVUs'],
    defaults: { timeUnit: '1s', gracefulStop: '10s' },
    validate: (cfg) => [...commonProblems(executor, cfg, owners), ...positive(cfg, 'rate'), ...positive(cfg, 'preAllocatedVUs'), ...maxVUsProblems(cfg)],
    describe: (cfg) => `${cfg.rate} iterations per ${cfg.timeUnit} for ${cfg.duration} (maxVUs ${cfg.maxVUs ?? cfg.preAllocatedVUs})`,
    plannedDurationMs: (cfg) => durationMs(cfg.duration),
    rateSegments: (cfg) => {
      const perSecond = ((cfg.rate ?? 0) * 1000) / durationMs(cfg.timeUnit, 1000);
      return [{ durationMs: durationMs(cfg.duration), from: perSecond, to: perSecond }];
    },
    maxInFlight: (cfg) => cfg.maxVUs ?? cfg.preAllocatedVUs ?? 1,
  };
  return executor;
}
