/** ramping-vus: VUs ramp linearly from startVUs through each stage's target (closed model). */
import type { ClosedExecutor } from './types.ts';
import { commonProblems, describeStages, stageProblems, stageSegments, totalMs, type OptionOwners } from './common.ts';

export function rampingVus(owners: OptionOwners): ClosedExecutor {
  const executor: ClosedExecutor = {
    name: 'ramping-vus',
    model: 'closed',
    options: ['startVUs', 'stages', 'gracefulStop'],
    required: ['stages'],
    defaults: { startVUs: 1, gracefulStop: '10s' },
    validate: (cfg) => {
      const problems = [...commonProblems(executor, cfg, owners), ...stageProblems(cfg.stages, 'VUs')];
      (cfg.stages ?? []).forEach((s, i) => {
        if (!Number.isInteger(s.target)) problems.push(`stages[${i}].target: VUs must be a whole number, got ${s.target}`);
        // The same bound as the schema's vus: one process, one connection per VU.
        else if (s.target > 10_000) problems.push(`stages[${i}].target: must be <= 10000 VUs; for more, run the scenario on k6 (harness export k6)`);
      });
      return problems;
    },
    describe: (cfg) => `up to ${Math.max(cfg.startVUs ?? 1, ...(cfg.stages ?? []).map((s) => s.target))} looping VUs: ${cfg.startVUs} at the start, ${describeStages(cfg.stages, ' VUs')}`,
    plannedDurationMs: (cfg) => totalMs(stageSegments(cfg.startVUs ?? 1, cfg.stages ?? [])),
    vuSegments: (cfg) => stageSegments(cfg.startVUs ?? 1, cfg.stages ?? []),
  };
  return executor;
}
