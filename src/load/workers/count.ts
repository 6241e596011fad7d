/**
 * How many worker threads run a scenario. Asked for: `--workers`, else the config's `load.workers`, else the
 * scenario's `workers`, else `auto` (the default). Never more workers than VUs to divide: a worker without one
 * would idle.
 *
 * `auto` is what the run needs, up to what the machine can spare: one worker per AUTO_RATE arrivals per second
 * of the open model's peak rate, or per AUTO_VUS VUs of the closed model's peak, and at most the cores less one
 * (os.availableParallelism: the main thread, a target on the same machine and the OS keep one). The divisors sit
 * well under what one worker sustained against nginx on the bench machine (docs/performance.md, the one-core
 * ceiling), leaving room for requests heavier than nginx's. A run whose generator still could not keep up is marked
 * generator-bound (metrics/generator-bound.ts).
 */
import { availableParallelism } from 'node:os';
import { getExecutor } from '../executors/registry.ts';
import type { Scenario } from '../scenario/types.ts';

export type WorkersSetting = number | 'auto';

export const AUTO_RATE = 10_000;
export const AUTO_VUS = 100;

export interface WorkerCount {
  workers: number;
  /** Why the count is not the one asked for, or how `auto` chose it (when it chose more than one). */
  note?: string;
}

export function workerCount(scenario: Scenario, requested: WorkersSetting | undefined, cores = availableParallelism()): WorkerCount {
  const asked = requested ?? scenario.workers ?? 'auto';
  const executor = getExecutor(scenario.executor);
  const open = executor.model === 'open';
  const units = open ? executor.maxInFlight(scenario) : Math.max(1, ...executor.vuSegments(scenario).map((s) => Math.max(s.from, s.to)));
  if (asked === 'auto') {
    const spare = Math.max(1, cores - 1);
    const peak = open ? Math.max(0, ...executor.rateSegments(scenario).map((s) => Math.max(s.from, s.to))) : units;
    const need = Math.max(1, Math.ceil(peak / (open ? AUTO_RATE : AUTO_VUS)));
    const workers = Math.max(1, Math.min(need, spare, units));
    if (workers === 1) return { workers };
    const basis = open ? `one per ${AUTO_RATE} req/s of the peak rate ${peak}` : `one per ${AUTO_VUS} VUs of ${peak}`;
    return { workers, note: `workers: auto chose ${workers} (${basis}, at most ${spare}: the ${cores} cores less one)` };
  }
  const wanted = Math.max(1, Math.floor(asked));
  if (wanted <= units) return { workers: wanted };
  return { workers: units, note: `${wanted} workers asked for, but the scenario has only ${units} VU(s) to divide: ran on ${units}` };
}
