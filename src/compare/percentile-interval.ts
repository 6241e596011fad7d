/**
 * Confidence intervals of latency percentiles, read from a run's HDR histogram (report.json
 * `scenarios[].histograms.all`, values in µs), so `harness compare --budget` decides with the noise a run's
 * sample size leaves and not on two point estimates.
 *
 * Method: the distribution-free (order-statistic) interval of a quantile. Among n independent samples, the number
 * that fall at or below the true p-quantile is Binomial(n, p); so the true quantile lies between the sample
 * values of rank n·p − z·√(n·p·(1−p)) and n·p + z·√(n·p·(1−p)) with the confidence z gives (normal
 * approximation of the binomial, fine once n·(1−p) ≥ MIN_TAIL). It assumes nothing about the latency
 * distribution's shape (long tails, several modes), needs no resampling (deterministic: the same reports always
 * give the same decision), and the ranks are read from the histogram exactly (to HDR's 3 significant digits).
 * It is the exact limit of a percentile bootstrap, without the random draws.
 */
import * as hdr from 'hdr-histogram-js';

/** Two-sided 99 % per interval: with two intervals compared, a false "exceeded" needs two 0.5 % tails at once. */
export const Z = 2.576;
/**
 * Fewest samples beyond the percentile (n·(1−p)) for an interval to mean anything: below it the upper bound is
 * the maximum and the normal approximation is poor, so the gate says "inconclusive: too few samples".
 */
export const MIN_TAIL = 10;

export interface PercentileInterval {
  /** Percentile in [0, 100]. */
  p: number;
  /** Samples in the histogram. */
  n: number;
  /** The point estimate and the interval bounds, ms. */
  valueMs: number;
  lowMs: number;
  highMs: number;
  /** False when n·(1−p) < MIN_TAIL: the interval is too wide to decide anything. */
  enough: boolean;
}

export function decodeHistogram(encoded: string): hdr.Histogram {
  return hdr.decodeFromCompressedBase64(encoded, 32, false);
}

/** The value at a (possibly fractional, clamped) 1-based rank: the histogram's value at that percentile. */
function valueAtRank(histogram: hdr.Histogram, rank: number): number {
  const n = histogram.totalCount;
  const clamped = Math.min(n, Math.max(1, rank));
  return histogram.getValueAtPercentile((clamped / n) * 100) / 1000;
}

export function percentileInterval(histogram: hdr.Histogram, p: number, z = Z): PercentileInterval {
  const n = histogram.totalCount;
  if (n === 0) return { p, n, valueMs: 0, lowMs: 0, highMs: 0, enough: false };
  const q = p / 100;
  const centre = n * q;
  const spread = z * Math.sqrt(n * q * (1 - q));
  return {
    p,
    n,
    valueMs: histogram.getValueAtPercentile(p) / 1000,
    lowMs: valueAtRank(histogram, Math.floor(centre - spread)),
    highMs: valueAtRank(histogram, Math.ceil(centre + spread) + 1),
    enough: n * (1 - q) >= MIN_TAIL,
  };
}

/** Fewest samples a run needs for percentile `p` to be decidable (n·(1−p) ≥ MIN_TAIL). */
export function samplesNeeded(p: number): number {
  return Math.ceil(MIN_TAIL / (1 - p / 100));
}
