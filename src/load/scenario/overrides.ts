/**
 * `--duration` and `--rate` applied to a scenario. A constant executor takes them as they are; a ramping one
 * keeps its shape: --duration stretches every stage by the same factor, --rate scales every stage target so
 * that the peak is the given rate. A flag that cannot apply is a usage error, not silently ignored.
 */
import { UsageError } from '../../errors/harness-errors.ts';
import { formatDuration, parseDuration } from '../duration.ts';
import { getExecutor, withExecutorDefaults } from '../executors/registry.ts';
import type { Scenario } from './types.ts';

export interface ScenarioOverrides {
  /** k6 duration text. */
  duration?: string;
  /** Arrivals per timeUnit (the scenario's, default 1s). */
  rate?: number;
}

export function applyOverrides(scenario: Scenario, overrides: ScenarioOverrides): Scenario {
  const out: Scenario = structuredClone(scenario);
  const executor = getExecutor(out.executor);
  if (overrides.duration !== undefined) {
    const ms = parseDuration(overrides.duration);
    if (ms === undefined || ms <= 0) throw new UsageError(`--duration: "${overrides.duration}" is not a duration (e.g. 10s, 1m30s)`);
    if (out.stages) {
      const factor = ms / executor.plannedDurationMs(out);
      out.stages = out.stages.map((s) => ({ ...s, duration: formatDuration((parseDuration(s.duration) ?? 0) * factor) }));
    } else if (out.executor === 'per-vu-iterations') {
      out.maxDuration = overrides.duration;
    } else {
      out.duration = overrides.duration;
    }
  }
  if (overrides.rate !== undefined) {
    // The same bound as the scenario schema's rate: past it one process cannot pace, and memory runs away.
    if (overrides.rate > 100_000) throw new UsageError(`--rate: must be <= 100000 per timeUnit, got ${overrides.rate}; for more, run the scenario on k6 (harness export k6)`);
    if (executor.model !== 'open') throw new UsageError(`--rate: scenario "${out.name}" uses ${out.executor} (closed model); --rate applies to constant-arrival-rate and ramping-arrival-rate`);
    if (out.stages) {
      const peak = Math.max(out.startRate ?? 0, ...out.stages.map((s) => s.target));
      const factor = peak > 0 ? overrides.rate / peak : 1;
      out.startRate = (out.startRate ?? 0) * factor;
      out.stages = out.stages.map((s) => ({ ...s, target: s.target * factor }));
    } else {
      out.rate = overrides.rate;
    }
  }
  return withExecutorDefaults(out);
}
