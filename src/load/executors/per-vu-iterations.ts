/** per-vu-iterations: each VU sends `iterations` requests, one after another (closed model). */
import type { ClosedExecutor } from './types.ts';
import { commonProblems, durationMs, positive, type OptionOwners } from './common.ts';

export function perVuIterations(owners: OptionOwners): ClosedExecutor {
  const executor: ClosedExecutor = {
    name: 'per-vu-iterations',
    model: 'closed',
    options: ['vus', 'iterations', 'maxDuration', 'gracefulStop'],
    required: [],
    defaults: { vus: 1, iterations: 1, maxDuration: '10m', gracefulStop: '10s' },
    validate: (cfg) => [...commonProblems(executor, cfg, owners), ...positive(cfg, 'vus'), ...positive(cfg, 'iterations')],
    describe: (cfg) => `${cfg.iterations} iterations for each of ${cfg.vus} VUs (${(cfg.iterations ?? 1) * (cfg.vus ?? 1)} in total), at most ${cfg.maxDuration}`,
    plannedDurationMs: (cfg) => durationMs(cfg.maxDuration),
    vuSegments: (cfg) => [{ durationMs: durationMs(cfg.maxDuration), from: cfg.vus ?? 1, to: cfg.vus ?? 1 }],
    iterationsPerVu: (cfg) => cfg.iterations ?? 1,
  };
  return executor;
}
