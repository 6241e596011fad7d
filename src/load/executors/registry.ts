/**
 * The executor registry, keyed by a scenario's `executor:` value (k6 lib/executor). An unknown name is a
 * scenario error (the schema's enum says so first, with the list).
 */
import type { ExecutorName, ExecutorOptions, Scenario } from '../scenario/types.ts';
import { constantArrivalRate } from './constant-arrival-rate.ts';
import { constantVus } from './constant-vus.ts';
import { perVuIterations } from './per-vu-iterations.ts';
import { rampingArrivalRate } from './ramping-arrival-rate.ts';
import { rampingVus } from './ramping-vus.ts';
import type { Executor } from './types.ts';

const owners = (option: keyof ExecutorOptions): string[] => [...EXECUTORS.values()].filter((e) => e.options.includes(option)).map((e) => e.name);

const EXECUTORS = new Map<ExecutorName, Executor>(
  [constantVus(owners), rampingVus(owners), perVuIterations(owners), constantArrivalRate(owners), rampingArrivalRate(owners)].map((e) => [e.name, e]),
);

export function getExecutor(name: ExecutorName): Executor {
  const executor = EXECUTORS.get(name);
  if (!executor) throw new Error(`no executor "${name}"`);
  return executor;
}

export function executorNames(): ExecutorName[] {
  return [...EXECUTORS.keys()];
}

/** The scenario with the executor's defaults under what the file says (maxVUs defaults to preAllocatedVUs). */
export function withExecutorDefaults(scenario: Scenario): Scenario {
  const executor = getExecutor(scenario.executor);
  const out: Scenario = { ...executor.defaults, ...scenario };
  if (executor.model === 'open' && out.maxVUs === undefined && out.preAllocatedVUs !== undefined) out.maxVUs = out.preAllocatedVUs;
  return out;
}
