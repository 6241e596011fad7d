import { describe, expect, it } from 'vitest';
import { vuSteps } from '../../../src/load/engine/closed-model.ts';
import { executorNames, getExecutor, withExecutorDefaults } from '../../../src/load/executors/registry.ts';
import type { Scenario } from '../../../src/load/scenario/types.ts';

const base = (extra: Partial<Scenario>): Scenario =>
  withExecutorDefaults({ name: 's', executor: 'constant-vus', credential: 'loadKey', requests: [], thresholds: {}, rateLimitedAsFailure: false, timeout: '10s', ...extra } as Scenario);

describe('executor registry', () => {
  it('has the five k6 executors, each with defaults, validate and describe', () => {
    expect(executorNames()).toEqual(['constant-vus', 'ramping-vus', 'per-vu-iterations', 'constant-arrival-rate', 'ramping-arrival-rate']);
    expect(getExecutor('constant-vus').defaults).toMatchObject({ vus: 1 });
    expect(getExecutor('per-vu-iterations').defaults).toMatchObject({ vus: 1, iterations: 1, maxDuration: '10m' });
    expect(getExecutor('ramping-arrival-rate').defaults).toMatchObject({ startRate: 0, timeUnit: '1s' });
  });

  it.each<[string, Partial<Scenario>, string[]]>([
    ['constant-vus without duration', { executor: 'constant-vus' }, ['executor: constant-vus needs "duration"']],
    ['constant-vus with vus 0 and a stage', { executor: 'constant-vus', duration: '1s', vus: 0, stages: [{ duration: '1s', target: 1 }] }, [
      'stages: does not apply to constant-vus (it is an option of ramping-vus, ramping-arrival-rate)',
      'vus: must be > 0',
    ]],
    ['ramping-vus with bad stages', { executor: 'ramping-vus', stages: [{ duration: 'soon', target: 1.5 }] }, [
      'stages[0].duration: "soon" is not a duration (e.g. 30s)',
      'stages: the stages must last longer than 0s in total',
      'stages[0].target: VUs must be a whole number, got 1.5',
    ]],
    ['constant-arrival-rate missing everything', { executor: 'constant-arrival-rate' }, [
      'executor: constant-arrival-rate needs "rate"',
      'executor: constant-arrival-rate needs "duration"',
      'executor: constant-arrival-rate needs "preAllocatedVUs"',
    ]],
    ['constant-arrival-rate with maxVUs below preAllocatedVUs', { executor: 'constant-arrival-rate', rate: 1, duration: '1s', preAllocatedVUs: 10, maxVUs: 5, vus: 3 }, [
      'vus: does not apply to constant-arrival-rate (it is an option of constant-vus, per-vu-iterations)',
      'maxVUs: 5 is less than preAllocatedVUs (10)',
    ]],
    ['ramping-arrival-rate with timeUnit 0', { executor: 'ramping-arrival-rate', preAllocatedVUs: 1, timeUnit: '0s', stages: [{ duration: '1s', target: 5 }] }, ['timeUnit: must be longer than 0s']],
    ['per-vu-iterations, valid', { executor: 'per-vu-iterations', vus: 2, iterations: 3 }, []],
  ])('validate: %s collects every problem', (_title, cfg, want) => {
    const scenario = base(cfg);
    expect(getExecutor(scenario.executor).validate(scenario)).toEqual(want);
  });

  it('describes a scenario in a line and gives its load profile', () => {
    const open = base({ executor: 'constant-arrival-rate', rate: 30, timeUnit: '1m', duration: '2m', preAllocatedVUs: 4 });
    const executor = getExecutor('constant-arrival-rate');
    expect(executor.describe(open)).toBe('30 iterations per 1m for 2m (maxVUs 4)');
    expect(executor.model === 'open' && executor.rateSegments(open)).toEqual([{ durationMs: 120_000, from: 0.5, to: 0.5 }]);
    const ramp = base({ executor: 'ramping-vus', startVUs: 0, stages: [{ duration: '2s', target: 4 }, { duration: '1s', target: 4 }] });
    expect(getExecutor('ramping-vus').describe(ramp)).toBe('up to 4 looping VUs: 0 at the start, 4 VUs over 2s, then 4 VUs over 1s');
    expect(getExecutor('ramping-vus').plannedDurationMs(ramp)).toBe(3000);
  });

  it('steps a VU ramp in one-second steps (autocannon runs a fixed connection count)', () => {
    expect(vuSteps([{ durationMs: 2000, from: 0, to: 4 }, { durationMs: 2000, from: 4, to: 4 }])).toEqual([
      { vus: 1, durationMs: 1000 },
      { vus: 3, durationMs: 1000 },
      { vus: 4, durationMs: 2000 },
    ]);
  });
});
