/**
 * Confidence intervals of latency percentiles, read from a run's HDR histograms (report.json
 * `scenarios[].histograms`, values in µs), so `harness compare --budget` decides with the noise a run leaves and
 * not on two point estimates.
 *
 * Method: Woodruff's interval (invert a confidence interval of the distribution function at the estimated
 * quantile), with the variance of that distribution function estimated from **blocks of time** rather than from
 * single requests. The p-quantile x̂ is read from the whole-run histogram; F̂(x̂) = q. Among n *independent*
 * requests, the count at or below x̂ is Binomial(n, q), Var F̂ = q·(1−q)/n, and the interval is the order-statistic
 * one (ranks n·q ∓ z·√(n·q·(1−q))). On a shared runner requests are not independent: a stall of the runner (or of
 * the target) makes every request of that moment slow together, so the count at or below x̂ varies far more than a
 * binomial's and the order-statistic interval comes out too narrow. Seconds of the run are much closer to
 * independent than requests are, so the variance is estimated from them: with c_b of block b's n_b requests at or
 * below x̂, Var F̂ = B/(B−1) · Σ_b (c_b − F̂·n_b)² / n² (the ratio estimator's variance over B clusters, as in
 * survey sampling; for independent requests it equals q·(1−q)/n on average). Stalls that last longer than a second
 * make neighbouring seconds correlated too, so the same is computed for blocks of 1, 2, 4 … seconds (longer blocks
 * only while at least MIN_BATCHES remain, below which the variance estimate itself is too noisy), and the widest
 * interval is kept: the batch-means variance grows with the block length until blocks are longer than the
 * correlation. The critical value is Student's t with B−1 degrees of freedom (the variance is estimated from B
 * blocks), and the interval is never narrower than the independent-samples one. Deterministic (no resampling: the
 * same reports always give the same decision), distribution-free (nothing assumed about the latency's shape), and
 * read from the histograms exactly (to HDR's 3 significant digits for the bounds, 2 for the per-second counts).
 *
 * A report without per-second histograms (older files) gets the independent-samples interval, and says so.
 */
import * as hdr from 'hdr-histogram-js';

/** Two-sided 99 % per interval: with two intervals compared, a false "exceeded" needs two 0.5 % tails at once. */
export const Z = 2.576;
/**
 * Fewest samples beyond the percentile (n·(1−p)) for an interval to mean anything: below it the upper bound is
 * the maximum and the normal approximation is poor, so the gate says "inconclusive: too few samples".
 */
export const MIN_TAIL = 10;
/** Fewest blocks a block length longer than one second must leave: fewer make the variance estimate too noisy. */
export const MIN_BATCHES = 10;

export interface PercentileInterval {
  /** Percentile in [0, 100]. */
  p: number;
  /** Samples in the histogram. */
  n: number;
  /** The point estimate and the interval bounds, ms. */
  valueMs: number;
  lowMs: number;
  highMs: number;
  /** False when the interval cannot decide anything: see `why`. */
  enough: boolean;
  /** Why it is not enough (too few samples beyond the percentile, too few seconds), when it is not. */
  why?: string;
  /**
   * `blocks`: the width came from blocks of time (correlation-robust); `independent`: the report had no per-second
   * histograms, so requests were taken as independent.
   */
  method: 'blocks' | 'independent';
  /** For `blocks`: the block length (s) and how many non-empty blocks gave the widest interval. */
  blockSeconds?: number;
  blocks?: number;
  /**
   * How much wider than the independent-samples interval this one is (1: not at all). Large values mean the run's
   * latencies moved together in time (stalls): more requests or a quieter runner narrow it.
   */
  widening: number;
  /**
   * The percentile over the calmer half of the run's seconds only (those whose median latency is at or below the
   * median second's), ms; with blocks only. A slowdown that is there in the calm seconds too is not the runner's
   * stalls (evaluate-budgets.ts).
   */
  calmMs?: number;
}

export function decodeHistogram(encoded: string): hdr.Histogram {
  return hdr.decodeFromCompressedBase64(encoded, 32, false);
}

/** A decoded per-block histogram as (bucket midpoint µs, count) pairs, read once and reused for every percentile. */
export type BlockCounts = ReadonlyArray<readonly [number, number]>;

export function blockCounts(encoded: string): BlockCounts {
  // Flat 32-bit counts (a second's bucket never nears 2³²), read once and dropped. The counts are scanned directly:
  // the library's recorded-values iterator computes two bucket values for every bucket it passes, recorded or not,
  // and cost several times the decoding.
  const histogram = hdr.decodeFromCompressedBase64(encoded, 32, false) as hdr.Histogram & {
    countsArrayLength: number;
    getCountAtIndex(index: number): number;
    valueFromIndex(index: number): number;
    lowestEquivalentValue(value: number): number;
    highestEquivalentValue(value: number): number;
  };
  const out: Array<[number, number]> = [];
  const total = histogram.totalCount;
  let seen = 0;
  for (let i = 0; i < histogram.countsArrayLength && seen < total; i++) {
    const count = histogram.getCountAtIndex(i);
    if (count === 0) continue;
    seen += count;
    // The bucket's middle: a per-second bucket is 1 % wide, the whole-run quantile is read at 0.1 %.
    const high = histogram.highestEquivalentValue(histogram.valueFromIndex(i));
    out.push([(histogram.lowestEquivalentValue(high) + high) / 2, count]);
  }
  return out;
}

/** The value at a (possibly fractional, clamped) 1-based rank: the histogram's value at that percentile. */
function valueAtRank(histogram: hdr.Histogram, rank: number): number {
  const n = histogram.totalCount;
  const clamped = Math.min(n, Math.max(1, rank));
  return histogram.getValueAtPercentile((clamped / n) * 100) / 1000;
}

/**
 * Student's t, two-sided 99 % (the 0.995 quantile), by degrees of freedom (standard tables). Between listed
 * degrees of freedom the next smaller one is used, which is the larger (more cautious) value.
 */
const T995: ReadonlyArray<readonly [number, number]> = [
  [1, 63.657], [2, 9.925], [3, 5.841], [4, 4.604], [5, 4.032], [6, 3.707], [7, 3.499], [8, 3.355], [9, 3.25], [10, 3.169],
  [11, 3.106], [12, 3.055], [13, 3.012], [14, 2.977], [15, 2.947], [16, 2.921], [17, 2.898], [18, 2.878], [19, 2.861], [20, 2.845],
  [21, 2.831], [22, 2.819], [23, 2.807], [24, 2.797], [25, 2.787], [26, 2.779], [27, 2.771], [28, 2.763], [29, 2.756], [30, 2.75],
  [40, 2.704], [60, 2.66], [120, 2.617],
];

export function tQuantile995(df: number): number {
  if (df < 1) return Infinity;
  let t = Z;
  for (const [d, value] of T995) if (df >= d) t = value;
  return t;
}

interface BlockSpread {
  /** Half-width of the interval of F, in probability units. */
  half: number;
  blockSeconds: number;
  blocks: number;
}

/** The widest block-based half-width over block lengths 1, 2, 4 … s (see the module comment). */
function blockSpread(seconds: readonly BlockCounts[], secondsPerBlock: number, xMicros: number): BlockSpread | undefined {
  const perSecond = seconds.map((buckets) => {
    let n = 0;
    let below = 0;
    for (const [mid, count] of buckets) {
      n += count;
      if (mid <= xMicros) below += count;
    }
    return [n, below] as const;
  });
  let widest: BlockSpread | undefined;
  for (let length = 1; length <= perSecond.length; length *= 2) {
    const groups: Array<[number, number]> = [];
    for (let i = 0; i < perSecond.length; i += length) {
      let n = 0;
      let below = 0;
      for (const [bn, bb] of perSecond.slice(i, i + length)) {
        n += bn;
        below += bb;
      }
      if (n > 0) groups.push([n, below]);
    }
    const b = groups.length;
    if (b < 2 || (length > 1 && b < MIN_BATCHES)) break;
    const total = groups.reduce((s, [n]) => s + n, 0);
    const f = groups.reduce((s, [, below]) => s + below, 0) / total;
    const ss = groups.reduce((s, [n, below]) => s + (below - f * n) ** 2, 0);
    const half = tQuantile995(b - 1) * Math.sqrt((b / (b - 1)) * ss) / total;
    if (!widest || half > widest.half) widest = { half, blockSeconds: length * secondsPerBlock, blocks: b };
  }
  return widest;
}

/** The p-quantile (ms) of the seconds whose own median is at or below the median second's median. */
export function calmQuantile(seconds: readonly BlockCounts[], p: number): number | undefined {
  const quantile = (buckets: ReadonlyArray<readonly [number, number]>, q: number): number | undefined => {
    const total = buckets.reduce((n, [, c]) => n + c, 0);
    if (total === 0) return undefined;
    const sorted = [...buckets].sort((a, b) => a[0] - b[0]);
    let seen = 0;
    for (const [mid, count] of sorted) {
      seen += count;
      if (seen >= q * total) return mid;
    }
    return sorted[sorted.length - 1]?.[0];
  };
  const medians = seconds.map((b) => quantile(b, 0.5));
  const known = medians.filter((m): m is number => m !== undefined).sort((a, b) => a - b);
  if (known.length < 2) return undefined;
  const cut = known[Math.floor((known.length - 1) / 2)] as number;
  const calm = seconds.filter((_, i) => medians[i] !== undefined && (medians[i] as number) <= cut).flat();
  const value = quantile(calm, p / 100);
  return value === undefined ? undefined : value / 1000;
}

export interface BlockInput {
  /** Each block's latencies (blockCounts of `histograms.blocks.histograms[i]`), in time order. */
  counts: readonly BlockCounts[];
  /** Seconds per block (`histograms.blocks.seconds`). */
  seconds: number;
}

export function percentileInterval(histogram: hdr.Histogram, p: number, blocks?: BlockInput, z = Z): PercentileInterval {
  const n = histogram.totalCount;
  const method = blocks ? 'blocks' : 'independent';
  if (n === 0) return { p, n, valueMs: 0, lowMs: 0, highMs: 0, enough: false, why: 'no requests', method, widening: 1 };
  const q = p / 100;
  const xMicros = histogram.getValueAtPercentile(p);
  const independentHalf = z * Math.sqrt((q * (1 - q)) / n);
  const spread = blocks ? blockSpread(blocks.counts, blocks.seconds, xMicros) : undefined;
  const half = Math.max(independentHalf, spread?.half ?? 0);
  const calm = blocks ? calmQuantile(blocks.counts, p) : undefined;
  const tailOk = n * (1 - q) >= MIN_TAIL;
  const blocksOk = !blocks || spread !== undefined;
  const why = !tailOk
    ? `too few samples: ${Math.round(n * (1 - q))} beyond p${p}, at least ${MIN_TAIL} needed (${samplesNeeded(p)} requests)`
    : !blocksOk
      ? 'too short: the requests fell into fewer than 2 seconds, so how much they vary together over time cannot be measured'
      : undefined;
  return {
    p,
    n,
    valueMs: xMicros / 1000,
    lowMs: valueAtRank(histogram, Math.floor(n * (q - half))),
    highMs: valueAtRank(histogram, Math.ceil(n * (q + half)) + 1),
    enough: tailOk && blocksOk,
    ...(why ? { why } : {}),
    method,
    ...(spread ? { blockSeconds: spread.blockSeconds, blocks: spread.blocks } : {}),
    widening: independentHalf > 0 ? half / independentHalf : 1,
    ...(calm !== undefined ? { calmMs: calm } : {}),
  };
}

/** Fewest samples a run needs for percentile `p` to be decidable (n·(1−p) ≥ MIN_TAIL). */
export function samplesNeeded(p: number): number {
  return Math.ceil(MIN_TAIL / (1 - p / 100));
}
