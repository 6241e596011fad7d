/** constant-vus: a fixed number of VUs loop request → answer for a duration (closed model). */
import type { ClosedExecutor } from './types.ts';
import { commonProblems, durationMs, positive, type OptionOwners } from './common.ts';

export function constantVus(owners: OptionOwners): ClosedExecutor {
  const executor: ClosedExecutor = {
    name: 'constant-vus',
    model: 'closed',
    options: ['vus', 'duration', 'gracefulStop'],
    required: ['duration'],
    defaults: { vus: 1, gracefulStop: '10s' },
    validate: (cfg) => [...commonProblems(executor, cfg, owners), ...positive(cfg, 'vus')],
    describe: (cfg) => `${cfg.vus} looping VUs for ${cfg.duration}`,
    plannedDurationMs: (cfg) => durationMs(cfg.duration),
    vuSegments: (cfg) => [{ durationMs: durationMs(cfg.duration), from: cfg.vus ?? 1, to: cfg.vus ?? 1 }],
  };
  return executor;
}
