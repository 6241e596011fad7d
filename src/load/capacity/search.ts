/**
 * Capacity search: raise the arrival rate step by step (×growth from `start`) until a step breaks the SLO or
 * the error budget (or `max` is reached), then bisect between the last good and the first bad rate until
 * they are within `precision` of each other. `measure` runs one step; the search itself is pure, so tests
 * drive it with a model of a target.
 *
 * Honesty about where it stopped: a broken step whose run was generator-bound says nothing about the target, so
 * it is never taken as the target's limit — the search stops there with ceiling "generator-bound"; a search that
 * reached `max` (or ran out of steps) with every step passing has ceiling "not-reached": the target may sustain
 * more. Only a step the target itself broke gives ceiling "found".
 */
import type { CapacityResult, CapacityStep } from '../result.ts';

export interface CapacitySearchOptions {
  start: number;
  max: number;
  /** Factor between rates while no step has failed. @default 2 */
  growth?: number;
  /** Stop bisecting when (bad − good) ≤ precision × good. @default 0.05 */
  precision?: number;
  /** Upper bound on steps in all. @default 16 */
  maxSteps?: number;
  /** Resolves to undefined when the step was interrupted before it finished: it is not judged, the search stops. */
  measure(rate: number): Promise<CapacityStep | undefined>;
}

/** Steps of the ramp from `start` to `max` (×growth each), at most maxSteps: the "of N" in "interrupted at step 3 of N". */
export function rampSteps(start: number, max: number, growth = 2, maxSteps = 16): number {
  let n = 1;
  for (let rate = Math.min(start, max); rate < max && n < maxSteps; rate = Math.min(max, Math.ceil(rate * growth))) n++;
  return n;
}

export type Ceiling = NonNullable<CapacityResult['ceiling']>;

export interface CapacitySearchResult {
  sustainableRps: number;
  steps: CapacityStep[];
  ceiling: Ceiling;
  /** With ceiling "interrupted": the step (1-based) that was running, and how many the ramp planned. */
  interrupted?: { atStep: number; plannedSteps: number };
}

export async function searchCapacity(options: CapacitySearchOptions): Promise<CapacitySearchResult> {
  const growth = options.growth ?? 2;
  const precision = options.precision ?? 0.05;
  const maxSteps = options.maxSteps ?? 16;
  const steps: CapacityStep[] = [];
  let good = 0;
  let bad: number | undefined;
  let rate = Math.min(options.start, options.max);
  // An interrupted step measured nothing whole: the result is what the finished steps showed, marked interrupted.
  const interrupted = (): CapacitySearchResult => ({
    sustainableRps: good,
    steps,
    ceiling: 'interrupted',
    interrupted: { atStep: steps.length + 1, plannedSteps: Math.max(steps.length + 1, rampSteps(options.start, options.max, growth, maxSteps)) },
  });
  while (steps.length < maxSteps) {
    const step = await options.measure(rate);
    if (!step) return interrupted();
    steps.push(step);
    if (!step.ok && step.generatorBound) return { sustainableRps: good, steps, ceiling: 'generator-bound' };
    if (!step.ok) {
      bad = rate;
      break;
    }
    good = rate;
    if (rate >= options.max) break;
    rate = Math.min(options.max, Math.ceil(rate * growth));
  }
  while (bad !== undefined && steps.length < maxSteps && bad - good > Math.max(1, precision * good)) {
    const mid = Math.round((good + bad) / 2);
    if (mid === good || mid === bad) break;
    const step = await options.measure(mid);
    if (!step) return interrupted();
    steps.push(step);
    // A generator-bound failure in between says nothing: the limit stays between good and the last real failure.
    if (!step.ok && step.generatorBound) break;
    if (step.ok) good = mid;
    else bad = mid;
  }
  return { sustainableRps: good, steps, ceiling: bad === undefined ? 'not-reached' : 'found' };
}

/** `1%` or `0.01` → 0.01. */
export function parseErrorBudget(text: string): number | undefined {
  const trimmed = text.trim();
  const percent = /^(\d+(?:\.\d+)?)\s*%$/.exec(trimmed);
  const value = percent ? Number(percent[1]) / 100 : Number(trimmed);
  return Number.isFinite(value) && value >= 0 && value <= 1 && trimmed !== '' ? value : undefined;
}
