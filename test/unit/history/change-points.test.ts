/**
 * Change points on seeded series (deterministic: the same seeds always give the same series and answers): a +20 %
 * shift inserted at run 16 of 30 is found at run 16 ± 1, and 30 runs of an unchanged build give none — with
 * Gaussian noise, with occasional stalled runs, and for every seed tried.
 */
import { describe, expect, it } from 'vitest';
import { changePoints, median, mulberry32, ranks } from '../../../src/history/change-points.ts';

const RELATIVE = { minEffect: 0.05, effect: 'relative' as const };

/** 30 runs around `level` with noise of `cv` (relative sd); from run `from` (1-based) on, times `factor`. */
function series(seed: number, options: { level?: number; cv?: number; from?: number; factor?: number; stallEvery?: number } = {}): number[] {
  const random = mulberry32(seed);
  const { level = 20, cv = 0.03, from = 31, factor = 1, stallEvery = 0 } = options;
  return Array.from({ length: 30 }, (_, i) => {
    const gauss = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
    const stalled = stallEvery > 0 && i % stallEvery === 3 ? 3 : 1;
    return level * (i + 1 >= from ? factor : 1) * (1 + cv * gauss) * stalled;
  });
}

describe('changePoints', () => {
  it('finds +20 % inserted at run 16 of 30 at run 16 ± 1, for each of 20 seeds', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const found = changePoints(series(seed, { from: 16, factor: 1.2 }), RELATIVE);
      expect(found.length, `seed ${seed}`).toBe(1);
      expect(Math.abs(found[0]!.index + 1 - 16), `seed ${seed}: run ${found[0]!.index + 1}`).toBeLessThanOrEqual(1);
      expect(found[0]!.after / found[0]!.before).toBeGreaterThan(1.1);
    }
  });

  // Stalls at runs 4, 11, 18 and 25. A stalled run just before the change (run 14 or 15) reads, by its rank, as
  // the new level's first run and moves the change point to it: the location is then off by as many runs.
  it('finds it with 5 % noise and a stalled run (3×) every 7 runs, too', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const found = changePoints(series(seed, { from: 16, factor: 1.2, cv: 0.05, stallEvery: 7 }), RELATIVE);
      expect(found.map((c) => c.index + 1).filter((run) => Math.abs(run - 16) <= 1), `seed ${seed}`).toHaveLength(1);
      expect(found, `seed ${seed}`).toHaveLength(1);
    }
  });

  it('finds none in 30 identical runs, for each of 50 seeds (3 % and 10 % noise, with stalled runs)', () => {
    for (let seed = 1; seed <= 50; seed++) {
      expect(changePoints(series(seed), RELATIVE), `seed ${seed}`).toEqual([]);
      expect(changePoints(series(seed + 1000, { cv: 0.1, stallEvery: 7 }), RELATIVE), `seed ${seed + 1000}`).toEqual([]);
    }
  });

  it('finds two shifts in one series (up at run 11, up again at run 21)', () => {
    const values = series(7).map((v, i) => (i >= 20 ? v * 1.69 : i >= 10 ? v * 1.3 : v));
    expect(changePoints(values, RELATIVE).map((c) => c.index + 1)).toEqual([11, 21]);
  });

  it('ignores a significant shift smaller than the minimum effect', () => {
    const values = series(3, { cv: 0.002, from: 16, factor: 1.02 });
    expect(changePoints(values, RELATIVE)).toEqual([]);
    expect(changePoints(values, { minEffect: 0.01, effect: 'relative' }).map((c) => c.index + 1)).toEqual([16]);
  });

  it('is deterministic and needs at least 6 runs', () => {
    const values = series(11, { from: 16, factor: 1.2 });
    expect(changePoints(values, RELATIVE)).toEqual(changePoints(values, RELATIVE));
    expect(changePoints([1, 1, 1, 2, 2], RELATIVE)).toEqual([]);
    expect(changePoints(new Array(30).fill(0), { minEffect: 0.01, effect: 'absolute' })).toEqual([]);
  });

  it('ranks ties at their mid-rank; median of odd and even counts', () => {
    expect(ranks([3, 1, 3, 2])).toEqual([3.5, 1, 3.5, 2]);
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 2, 3])).toBe(2.5);
  });
});
