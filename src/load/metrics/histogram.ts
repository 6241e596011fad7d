/**
 * HDR histograms (hdr-histogram-js, pure JS: no WebAssembly to initialise) for latencies in microseconds.
 * Results keep them encoded (compressed base64), and merging is adding counts, so the merge of workers' or
 * runs' histograms is exactly the histogram of all their values (autocannon's aggregateResult does the same).
 */
import * as hdr from 'hdr-histogram-js';
import type { LatencySummary } from '../result.ts';

export type Histogram = hdr.Histogram;

/** 1 µs to 1 h, 3 significant digits (0.1 % value resolution), growing when a value is larger. */
export function createHistogram(): Histogram {
  return hdr.build({ bitBucketSize: 32, lowestDiscernibleValue: 1, highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: 3, autoResize: true, useWebAssembly: false });
}

/**
 * For the per-second time series: 2 significant digits (1 % resolution) in a packed array, so an hour-long
 * soak keeps 3 600 small histograms instead of 3 600 large ones.
 */
export function createCompactHistogram(): Histogram {
  return hdr.build({ bitBucketSize: 'packed', lowestDiscernibleValue: 1, highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: 2, autoResize: true, useWebAssembly: false });
}

/** The newest second's histogram while it takes answers: the compact one's precision, recorded six times faster. */
export function createSecondHistogram(): Histogram {
  return hdr.build({ bitBucketSize: 32, lowestDiscernibleValue: 1, highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: 2, autoResize: true, useWebAssembly: false });
}

export function recordMicros(histogram: Histogram, micros: number): void {
  histogram.recordValue(Math.max(1, Math.round(micros)));
}

export function encodeHistogram(histogram: Histogram): string {
  return hdr.encodeIntoCompressedBase64(histogram);
}

export function decodeHistogram(encoded: string, compact = false): Histogram {
  const decoded = hdr.decodeFromCompressedBase64(encoded, compact ? 'packed' : 32, false);
  // A fresh histogram of our own shape, so later merges and records behave alike whatever was encoded.
  const out = compact ? createCompactHistogram() : createHistogram();
  out.add(decoded);
  return out;
}

/**
 * Adds an encoded histogram into `into` (exact: counts are summed bucket by bucket). The encoding is decoded into
 * 32-bit buckets whatever kind `into` is: decoding into the packed kind and copying it once more, as this did until
 * issue 21, cost about 6 ms per second of timeline: 50 ms a second for the live merge of two workers (`bench:load-engine
 * --only merge`, docs/performance.md).
 */
export function addEncoded(into: Histogram, encoded: string): void {
  into.add(hdr.decodeFromCompressedBase64(encoded, 32, false));
}

/** Adds `from` into `into` (exact: counts are summed bucket by bucket). */
export function mergeInto(into: Histogram, from: Histogram): void {
  into.add(from);
}

const ms = (micros: number): number => Math.round(micros) / 1000;

export function percentileMs(histogram: Histogram, p: number): number {
  return histogram.totalCount === 0 ? 0 : ms(histogram.getValueAtPercentile(p));
}

export function summarizeLatency(histogram: Histogram): LatencySummary {
  return {
    p50: percentileMs(histogram, 50),
    p90: percentileMs(histogram, 90),
    p95: percentileMs(histogram, 95),
    p99: percentileMs(histogram, 99),
    p999: percentileMs(histogram, 99.9),
    p9999: percentileMs(histogram, 99.99),
    // The bucket's highest equivalent value, like the percentiles: the same whether live, decoded or merged.
    max: percentileMs(histogram, 100),
  };
}

/** Mean, min and max in ms (for avg/min/max thresholds). */
export function statsMs(histogram: Histogram): { avg: number; min: number; max: number } {
  if (histogram.totalCount === 0) return { avg: 0, min: 0, max: 0 };
  return { avg: ms(histogram.mean), min: ms(histogram.minNonZeroValue), max: percentileMs(histogram, 100) };
}
