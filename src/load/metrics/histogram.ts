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
 * 32-bit buckets whatever kind `into` is: decoding into the packed kind and copying it once more costs a copy per
 * second of timeline, which the live merge of workers pays every second (`bench:load-engine --only merge`).
 */
export function addEncoded(into: Histogram, encoded: string): void {
  into.add(hdr.decodeFromCompressedBase64(encoded, 32, false));
}

/**
 * A histogram as its non-empty buckets: a value in each (the lowest the bucket holds; the histogram's own smallest
 * and largest values in the first and last, so a merge keeps its min and max exact) and its count. What a load
 * worker posts the main thread: structured clone copies two small typed arrays, where an encoding is a deflate,
 * which a worker sharing a core would pay inside its pacing, dropping arrivals (docs/performance.md). Not JSON-safe: results and
 * `Recorder.snapshot()` keep encodings.
 */
export interface HistogramBuckets {
  readonly values: Float64Array;
  readonly counts: Float64Array;
}

export function bucketsOf(histogram: Histogram): HistogramBuckets {
  // useWebAssembly is off (createHistogram and its kin): every histogram here is a JsHistogram.
  const h = histogram as unknown as hdr.JsHistogram;
  if (h.totalCount === 0) return { values: new Float64Array(0), counts: new Float64Array(0) };
  const { minNonZeroValue: min, maxValue: max } = h;
  const bottom = h.countsArrayIndex(min);
  const top = h.countsArrayIndex(max);
  let n = 0;
  for (let i = 0; i <= top; i++) if (h.getCountAtIndex(i) > 0) n++;
  // One entry more: when min and max share a bucket, one of its counts is filed at max and the others at min.
  const values = new Float64Array(n + 1);
  const counts = new Float64Array(n + 1);
  let k = 0;
  for (let i = 0; i <= top; i++) {
    const count = h.getCountAtIndex(i);
    if (count === 0) continue;
    if (i === bottom && i === top && count > 1 && min !== max) {
      values[k] = min;
      counts[k++] = count - 1;
      values[k] = max;
      counts[k++] = 1;
      continue;
    }
    values[k] = i === top ? max : i === bottom ? min : h.valueFromIndex(i);
    counts[k++] = count;
  }
  return { values: values.subarray(0, k), counts: counts.subarray(0, k) };
}

/** Adds a histogram's buckets into `into`: exact (each value lands in its own bucket), min and max included. */
export function addBuckets(into: Histogram, buckets: HistogramBuckets): void {
  const { values, counts } = buckets;
  for (let i = 0; i < values.length; i++) into.recordValueWithCount(values[i] as number, counts[i] as number);
}

/** Adds a snapshot's histogram, encoded or as buckets, into `into`. */
export function addSnapshotHistogram(into: Histogram, histogram: string | HistogramBuckets): void {
  if (typeof histogram === 'string') addEncoded(into, histogram);
  else addBuckets(into, histogram);
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
