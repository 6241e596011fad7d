/**
 * report.json `histograms.blocks`: the run's latencies by second of the timeline, for compare's correlation-robust
 * intervals; one block per second up to MAX_BLOCKS seconds, longer blocks beyond (a long soak's report stays small).
 */
import { describe, expect, it } from 'vitest';
import { blockCounts } from '../../../src/compare/percentile-interval.ts';
import { Recorder } from '../../../src/load/metrics/recorder.ts';
import { MAX_BLOCKS, timeBlocks } from '../../../src/load/metrics/summarize.ts';

const total = (encoded: string) => blockCounts(encoded).reduce((n, [, c]) => n + c, 0);

describe('time blocks', () => {
  it('one histogram per timeline second, holding that second\'s answers (and timed-out errors)', () => {
    const r = new Recorder(['a']);
    r.record(0, 200, true, 5, 100);
    r.record(0, 200, true, 7, 1100);
    r.record(0, 200, true, 9, 1900);
    r.recordError(0, 'UND_ERR_HEADERS_TIMEOUT', 3500, 3000);
    const blocks = timeBlocks(r);
    expect(blocks.seconds).toBe(1);
    expect(blocks.histograms.map(total)).toEqual([1, 2, 0, 1]);
    expect(blocks.histograms.map(total)).toEqual(r.timeline.map((s) => s.histogram.totalCount));
    // The values survive (2 significant digits): second 1 holds 7 ms and 9 ms.
    expect(blockCounts(blocks.histograms[1]!).map(([mid]) => Math.round(mid / 1000))).toEqual([7, 9]);
  });

  it(`longer blocks past ${MAX_BLOCKS} seconds, every answer still in exactly one block`, () => {
    const r = new Recorder(['a']);
    const seconds = MAX_BLOCKS * 2 + 5;
    for (let t = 0; t < seconds; t++) r.record(0, 200, true, 2, t * 1000 + 500);
    const blocks = timeBlocks(r);
    expect(blocks.seconds).toBe(3);
    expect(blocks.histograms).toHaveLength(Math.ceil(seconds / 3));
    expect(blocks.histograms.map(total).reduce((a, b) => a + b, 0)).toBe(seconds);
    expect(total(blocks.histograms[0]!)).toBe(3);
  });
});
