/**
 * blockCounts reads a second's histogram by scanning its counts: it must give exactly what hdr-histogram-js's own
 * recorded-values iterator gives (every recorded bucket in order, at the same midpoint, with its count), for
 * latencies from 0 µs to hours.
 */
import * as hdr from 'hdr-histogram-js';
import { describe, expect, it } from 'vitest';
import { blockCounts } from '../../../src/compare/percentile-interval.ts';
import { createCompactHistogram, encodeHistogram } from '../../../src/load/metrics/histogram.ts';
import { mulberry32 } from '../../helpers/mulberry32.ts';

type Iterated = hdr.Histogram & {
  recordedValuesIterator: { reset(): void; hasNext(): boolean; next(): { valueIteratedTo: number; countAtValueIteratedTo: number } };
  lowestEquivalentValue(value: number): number;
};

function viaIterator(encoded: string): Array<[number, number]> {
  const histogram = hdr.decodeFromCompressedBase64(encoded, 32, false) as Iterated;
  const out: Array<[number, number]> = [];
  const it = histogram.recordedValuesIterator;
  it.reset();
  while (it.hasNext()) {
    const v = it.next();
    out.push([(histogram.lowestEquivalentValue(v.valueIteratedTo) + v.valueIteratedTo) / 2, v.countAtValueIteratedTo]);
  }
  return out;
}

describe('blockCounts', () => {
  it("equals the library's recorded-values iterator on the recorder's per-second histograms", () => {
    const random = mulberry32(7);
    for (let k = 0; k < 120; k++) {
      const second = createCompactHistogram();
      const n = 1 + Math.floor(random() * 200);
      // Up to e^10 µs (22 ms) mostly, up to e^22 µs (an hour) for every third second; a 0 µs answer now and then.
      for (let i = 0; i < n; i++) second.recordValue(Math.floor(Math.exp(random() * (k % 3 === 0 ? 22 : 10))));
      if (k % 7 === 0) second.recordValue(0);
      const encoded = encodeHistogram(second);
      const counts = blockCounts(encoded);
      expect(counts).toEqual(viaIterator(encoded));
      expect(counts.reduce((sum, [, c]) => sum + c, 0)).toBe(second.totalCount);
    }
  });

  it('an empty second has no buckets', () => {
    expect(blockCounts(encodeHistogram(createCompactHistogram()))).toEqual([]);
  });
});
