import { describe, expect, it } from 'vitest';
import { parseErrorBudget, rampSteps, searchCapacity } from '../../../src/load/capacity/search.ts';
import { interruptedText } from '../../../src/util/capacity-words.ts';
import { formatCapacity } from '../../../src/load/print-summary.ts';
import type { CapacityStep } from '../../../src/load/result.ts';

/** A model target: fine up to `limit` req/s, then p99 explodes. */
const model = (limit: number) => async (rate: number): Promise<CapacityStep> => {
  const ok = rate <= limit;
  return { rate, achievedRps: Math.min(rate, limit), p50: 1, p99: ok ? 20 : 900, errorRate: 0, ok };
};

describe('capacity search', () => {
  it('doubles until a step breaks, then bisects to within 5 %', async () => {
    const { sustainableRps, steps } = await searchCapacity({ start: 100, max: 100_000, measure: model(1234) });
    expect(steps.slice(0, 6).map((s) => s.rate)).toEqual([100, 200, 400, 800, 1600, 1200]);
    expect(sustainableRps).toBeLessThanOrEqual(1234);
    expect(sustainableRps).toBeGreaterThanOrEqual(1234 * 0.95);
    expect(steps.every((s) => s.ok === s.rate <= 1234)).toBe(true);
  });

  it('stops at max when nothing breaks, and reports 0 when the start already breaks', async () => {
    expect((await searchCapacity({ start: 100, max: 500, measure: model(10_000) })).sustainableRps).toBe(500);
    const broken = await searchCapacity({ start: 100, max: 500, measure: model(10), maxSteps: 6 });
    expect(broken.sustainableRps).toBeLessThanOrEqual(10);
    expect(broken.steps).toHaveLength(6);
  });

  it('parses error budgets', () => {
    expect(parseErrorBudget('1%')).toBe(0.01);
    expect(parseErrorBudget('0.5 %')).toBe(0.005);
    expect(parseErrorBudget('0.02')).toBe(0.02);
    expect(parseErrorBudget('150%')).toBeUndefined();
    expect(parseErrorBudget('lots')).toBeUndefined();
  });
});

describe('capacity: where the search stopped', () => {
  const generatorBoundAbove = (limit: number) => async (rate: number): Promise<CapacityStep> => {
    const ok = rate <= limit;
    return { rate, achievedRps: Math.min(rate, limit), p50: 1, p99: ok ? 20 : 900, errorRate: 0, ok, ...(ok ? {} : { generatorBound: true }) };
  };

  it('says "ceiling not reached" when every step up to --max passed', async () => {
    const found = await searchCapacity({ start: 100, max: 500, measure: model(10_000) });
    expect(found).toMatchObject({ sustainableRps: 500, ceiling: 'not-reached' });
    const text = formatCapacity({ sustainableRps: found.sustainableRps, slo: 'p(99)<200', errorBudget: 0.01, steps: found.steps, ceiling: found.ceiling });
    expect(text).toMatch(/at least 500 req\/s — ceiling not reached/);
    expect(text).not.toMatch(/^sustainable: 500 req\/s/m);
  });

  it('gives "found" only when the target itself broke a step', async () => {
    expect((await searchCapacity({ start: 100, max: 100_000, measure: model(1234) })).ceiling).toBe('found');
  });

  it('never takes a generator-bound broken step for the target\'s limit: it stops there, without bisecting', async () => {
    const found = await searchCapacity({ start: 100, max: 100_000, measure: generatorBoundAbove(700) });
    expect(found.ceiling).toBe('generator-bound');
    expect(found.sustainableRps).toBe(400);
    expect(found.steps.map((s) => s.rate)).toEqual([100, 200, 400, 800]);
    const text = formatCapacity({ sustainableRps: found.sustainableRps, slo: 'p(99)<200', errorBudget: 0.01, steps: found.steps, ceiling: found.ceiling });
    expect(text).toMatch(/at least 400 req\/s — the target's limit was not measured/);
    expect(text).toMatch(/no \(generator-bound\)/);
  });
});

describe('an interrupted search never reports a step it did not finish', () => {
  it('stops at the interrupted step: ceiling "interrupted", only finished steps, where it stopped of the planned ramp', async () => {
    let calls = 0;
    const result = await searchCapacity({
      start: 100,
      max: 12_800,
      // Steps 1 and 2 finish and hold; step 3 is cut by SIGINT (measure says so with undefined).
      measure: async (rate) => (++calls <= 2 ? { rate, achievedRps: rate, p50: 1, p99: 2, errorRate: 0, ok: true } : undefined),
    });
    expect(result.ceiling).toBe('interrupted');
    expect(result.steps.map((s) => s.rate)).toEqual([100, 200]);
    expect(result.sustainableRps).toBe(200);
    // 100, 200, 400 … 12800: eight steps planned.
    expect(result.interrupted).toEqual({ atStep: 3, plannedSteps: 8 });
    expect(interruptedText({ ...result })).toBe('ceiling not reached: interrupted at step 3 of 8; at least 200 req/s held in the finished steps');
  });

  it('interrupted in its first step: nothing held, no rate claimed', async () => {
    const result = await searchCapacity({ start: 100, max: 800, measure: async () => undefined });
    expect(result).toMatchObject({ ceiling: 'interrupted', sustainableRps: 0, steps: [], interrupted: { atStep: 1, plannedSteps: 4 } });
    expect(interruptedText(result)).toBe('ceiling not reached: interrupted at step 1 of 4; no finished step held the SLO');
  });

  it('rampSteps counts the ramp from start to max', () => {
    expect(rampSteps(100, 100)).toBe(1);
    expect(rampSteps(100, 150)).toBe(2);
    expect(rampSteps(100, 20_000)).toBe(9);
  });
});
