/**
 * Change points in a series of runs: where a metric's level shifted and stayed shifted. E-divisive means (Matteson
 * and James 2014, as Hunter / Apache Otava use it) on ranks, with a permutation test
 * (docs/decisions/2026-11-27-history-folder.md):
 *
 * - For a segment, each split k (at least MIN_SEGMENT runs each side) gets the energy statistic of "before k"
 *   against "from k on" (bestSplit); the largest is the candidate. On ranks, not raw values: one stalled run (a p95
 *   ten times the others) counts as one high rank, not as a distance that outweighs every other run.
 * - Its significance is a permutation test: the same maximum over splits for PERMUTATIONS shuffles of the segment.
 *   Runs of an unchanged build are exchangeable, so p ≤ ALPHA happens by chance ALPHA of the time, whatever the
 *   metric's distribution. The shuffles come from a fixed-seed generator: the same series always gives the same
 *   answer.
 * - A significant split is also required to be large enough to matter: the segments' medians differ by at least
 *   `minEffect` (relative for latency and throughput, absolute for rates), so a tiny but consistent drift is not
 *   reported as a change.
 * - Found splits divide the segment and each side is searched again, up to MAX_DEPTH levels.
 */

export const MIN_SEGMENT = 3;
export const ALPHA = 0.002;
export const PERMUTATIONS = 1999;
const MAX_DEPTH = 6;
const SEED = 0x5eed_c0de;

export interface ChangeOptions {
  /** Smallest difference of the segments' medians that counts as a change. */
  minEffect: number;
  /** `relative`: |after − before| / |before|; `absolute`: |after − before|. */
  effect: 'relative' | 'absolute';
}

export interface ChangePoint {
  /** Index of the first run of the new level. */
  index: number;
  before: number;
  after: number;
  /** Permutation p-value of the split. */
  p: number;
}

export function changePoints(values: readonly number[], options: ChangeOptions): ChangePoint[] {
  const found: ChangePoint[] = [];
  search(values, 0, values.length, options, found, 0);
  return found.sort((a, b) => a.index - b.index);
}

function search(values: readonly number[], from: number, to: number, options: ChangeOptions, found: ChangePoint[], depth: number): void {
  if (depth >= MAX_DEPTH || to - from < 2 * MIN_SEGMENT) return;
  const segment = values.slice(from, to);
  const r = ranks(segment);
  const best = bestSplit(r);
  if (best.z === 0) return;
  const random = mulberry32(SEED ^ (from * 7919 + to));
  // Shuffling the ranks is shuffling the values (the ranks of a permutation are the permuted ranks).
  const shuffled = r.slice();
  let atLeast = 0;
  for (let i = 0; i < PERMUTATIONS; i++) {
    shuffle(shuffled, random);
    if (bestSplit(shuffled).z >= best.z - 1e-12) atLeast++;
  }
  const p = (atLeast + 1) / (PERMUTATIONS + 1);
  const before = median(segment.slice(0, best.k));
  const after = median(segment.slice(best.k));
  const size = options.effect === 'relative' ? (before === 0 ? (after === 0 ? 0 : Infinity) : Math.abs(after - before) / Math.abs(before)) : Math.abs(after - before);
  if (p > ALPHA || size < options.minEffect) return;
  found.push({ index: from + best.k, before, after, p });
  search(values, from, from + best.k, options, found, depth + 1);
  search(values, from + best.k, to, options, found, depth + 1);
}

/**
 * The split with the largest E-divisive statistic on the values' ranks (α = 1): Q(k) = k·(n−k)/n · (2·mean|X−Y| −
 * mean|X−X'| − mean|Y−Y'|), X the ranks before k, Y from k on. The within-segment terms are what place a split at
 * the step itself when a series has two steps, where a two-sample statistic alone prefers the middle.
 */
function bestSplit(r: readonly number[]): { k: number; z: number } {
  const n = r.length;
  let total = 0;
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) total += Math.abs(r[i]! - r[j]!);
  let withinX = 0;
  let withinY = total;
  let best = { k: 0, z: 0 };
  for (let k = 1; k < n; k++) {
    // Run k−1 moves from Y to X: its distances to X join withinX, its distances to the rest of Y leave withinY.
    const moved = r[k - 1]!;
    for (let i = 0; i < k - 1; i++) withinX += Math.abs(r[i]! - moved);
    for (let j = k; j < n; j++) withinY -= Math.abs(moved - r[j]!);
    if (k < MIN_SEGMENT || n - k < MIN_SEGMENT) continue;
    const between = total - withinX - withinY;
    const m = n - k;
    const energy = (2 * between) / (k * m) - withinX / ((k * (k - 1)) / 2) - withinY / ((m * (m - 1)) / 2);
    const q = ((k * m) / n) * energy;
    if (q > best.z + 1e-9) best = { k, z: q };
  }
  return best;
}

/** Mid-ranks (1-based): equal values share the mean of their ranks. */
export function ranks(values: readonly number[]): number[] {
  const order = values.map((v, i) => [v, i] as const).sort((a, b) => a[0] - b[0]);
  const out = new Array<number>(values.length);
  for (let i = 0; i < order.length; ) {
    let j = i;
    while (j + 1 < order.length && order[j + 1]![0] === order[i]![0]) j++;
    for (let t = i; t <= j; t++) out[order[t]![1]] = (i + j) / 2 + 1;
    i = j + 1;
  }
  return out;
}

export function median(values: readonly number[]): number {
  const sorted = values.slice().sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function shuffle(values: number[], random: () => number): void {
  for (let i = values.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [values[i], values[j]] = [values[j]!, values[i]!];
  }
}

/** A small seeded generator (mulberry32): reproducible shuffles, not security. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
