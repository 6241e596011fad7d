import { describe, expect, it } from 'vitest';
import { createCompactHistogram, createHistogram, decodeHistogram, encodeHistogram, recordMicros, summarizeLatency } from '../../../src/load/metrics/histogram.ts';
import { mergeSnapshots, Recorder, type RecorderSnapshot } from '../../../src/load/metrics/recorder.ts';
import { buildScenarioResult } from '../../../src/load/metrics/summarize.ts';
import { seededRandom } from '../../../src/load/random.ts';
import type { Scenario } from '../../../src/load/scenario/types.ts';

const scenario: Scenario = { name: 's', executor: 'constant-arrival-rate', credential: 'loadKey', requests: [], thresholds: {}, rateLimitedAsFailure: false, timeout: '10s' };

function fill(recorder: Recorder, seed: number, n: number): void {
  const random = seededRandom(seed);
  for (let i = 0; i < n; i++) {
    const latency = random() < 0.01 ? 100 + random() * 900 : random() * 20;
    const status = random() < 0.05 ? 429 : random() < 0.02 ? 500 : 201;
    recorder.record(random() < 0.7 ? 0 : 1, status, status === 201, latency, random() * 3000);
  }
  recorder.recordError(0, 'ECONNRESET', 1500);
  recorder.recordDropped(2500);
  recorder.elapsedMs = 3000;
}

describe('HDR histograms and recorder merging', () => {
  it('encodes and decodes a histogram without losing a count', () => {
    const h = createHistogram();
    for (let v = 1; v < 100_000; v += 7) recordMicros(h, v);
    const back = decodeHistogram(encodeHistogram(h));
    expect(back.totalCount).toBe(h.totalCount);
    expect(summarizeLatency(back)).toEqual(summarizeLatency(h));
  });

  it('merging workers’ snapshots gives exactly the single-recorder result', () => {
    const single = new Recorder(['send', 'list']);
    const workers = [new Recorder(['send', 'list']), new Recorder(['send', 'list']), new Recorder(['send', 'list'])];
    workers.forEach((w, i) => {
      fill(w, 100 + i, 5000);
      fill(single, 100 + i, 5000);
    });
    const merged = mergeSnapshots(workers.map((w) => JSON.parse(JSON.stringify(w.snapshot()))));
    const a = buildScenarioResult(scenario, single, [], '');
    const b = buildScenarioResult(scenario, merged, [], '');
    expect(b.requests).toBe(15_003);
    expect(b.dropped).toBe(3);
    expect({ ...b, histograms: undefined }).toEqual({ ...a, histograms: undefined });
    expect(merged.histogram().totalCount).toBe(single.histogram().totalCount);
    expect(merged.histogram('send').getValueAtPercentile(99.99)).toBe(single.histogram('send').getValueAtPercentile(99.99));
  });

  it('keeps 429 apart from failures unless asked, and attributes unknown errors to no name', () => {
    const plain = new Recorder(['a']);
    plain.record(0, 429, false, 1, 0);
    plain.record(0, 500, false, 1, 0);
    plain.recordError(plain.unattributed, 'timeout', 0);
    expect(plain.counts()).toMatchObject({ requests: 3, failed: 2, rateLimited: 1, errors: 1 });
    expect(plain.counts('a')).toMatchObject({ requests: 2, failed: 1, rateLimited: 1, errors: 0 });
    const strict = new Recorder(['a'], { rateLimitedAsFailure: true });
    strict.record(0, 429, false, 1, 0);
    expect(strict.counts()).toMatchObject({ failed: 1, rateLimited: 1 });
  });

  it('builds the per-second time series by completion time', () => {
    const r = new Recorder(['a']);
    r.record(0, 200, true, 5, 100);
    r.record(0, 404, false, 7, 999);
    r.record(0, 503, false, 9, 1000);
    r.recordError(0, 'ECONNRESET', 2500);
    r.elapsedMs = 3000;
    const result = buildScenarioResult(scenario, r, [], '');
    expect(result.timeline.map((p) => [p.t, p.requests, p.status2xx, p.status4xx, p.status5xx, p.errors])).toEqual([
      [0, 2, 1, 1, 0, 0],
      [1, 1, 0, 0, 1, 0],
      [2, 1, 0, 0, 0, 1],
    ]);
    expect(Object.keys(result.latency)).toEqual(['p50', 'p90', 'p95', 'p99', 'p999', 'p9999', 'max']);
    expect(result.rps).toBeCloseTo(4 / 3, 1);
  });

  it('packs each second when the next one begins without changing a count, and derives the overall histogram from the names', () => {
    const r = new Recorder(['a', 'b']);
    const direct = [createCompactHistogram(), createCompactHistogram(), createCompactHistogram()];
    const overall = createHistogram();
    const random = seededRandom(7);
    // In completion order, as the engines record: second 0, then 1, then 2 (so seconds 0 and 1 get packed).
    for (let i = 0; i < 3000; i++) {
      const at = i;
      const latency = random() < 0.02 ? 50 + random() * 500 : random() * 10;
      r.record(i % 2, 200, true, latency, at);
      recordMicros(direct[Math.floor(at / 1000)]!, latency * 1000);
      recordMicros(overall, latency * 1000);
    }
    // A late answer for a packed second still lands in it.
    r.record(0, 200, true, 3, 500);
    recordMicros(direct[0]!, 3000);
    recordMicros(overall, 3000);
    expect(r.timeline).toHaveLength(3);
    r.timeline.forEach((second, t) => {
      expect(second.histogram.totalCount).toBe(direct[t]!.totalCount);
      for (const p of [50, 90, 99, 99.9, 100]) expect(second.histogram.getValueAtPercentile(p)).toBe(direct[t]!.getValueAtPercentile(p));
    });
    expect(r.histogram().totalCount).toBe(3001);
    expect(summarizeLatency(r.histogram())).toEqual(summarizeLatency(overall));
    expect(r.histogram('a').totalCount + r.histogram('b').totalCount).toBe(3001);
    // Read again after more answers: the overall histogram follows.
    r.record(1, 200, true, 900, 2999);
    expect(r.histogram().totalCount).toBe(3002);
  });
  it('a worker snapshotted every second, with answers landing in seconds already sent, ends with the same numbers as one never snapshotted', () => {
    const live = new Recorder(['a']);
    const plain = new Recorder(['a']);
    const random = seededRandom(7);
    const both = (f: (r: Recorder) => void): void => {
      f(live);
      f(plain);
    };
    for (let second = 0; second < 6; second++) {
      for (let i = 0; i < 400; i++) {
        const latency = random() * 30;
        both((r) => r.record(0, 200, true, latency, second * 1000 + i * 2.5));
      }
      // Late: filed in a second that a live snapshot already carried (and that is packed by now).
      if (second >= 2) both((r) => r.recordError(0, 'ECONNRESET', (second - 2) * 1000 + 10, 55));
      live.elapsedMs = (second + 1) * 1000;
      const partial = live.snapshot(Math.max(0, live.timeline.length - 3));
      expect(partial.timeline).toHaveLength(Math.min(3, live.timeline.length));
    }
    live.elapsedMs = plain.elapsedMs = 6000;
    const a = buildScenarioResult(scenario, mergeSnapshots([live.snapshot()]), [], '');
    const b = buildScenarioResult(scenario, mergeSnapshots([plain.snapshot()]), [], '');
    expect(a).toEqual(b);
    expect(a.timeline.map((p) => p.requests)).toEqual([401, 401, 401, 401, 400, 400]);
  });

  it('a live merge of recent seconds: the seconds before them share one empty histogram until something is filed there', () => {
    const worker = (from: number): RecorderSnapshot => {
      const r = new Recorder(['a']);
      for (let second = 0; second < 3600; second++) r.recordStart(second * 1000, 0);
      for (let i = 0; i < 100; i++) r.record(0, 200, true, 1 + (i % 10), 3_597_000 + i * 5);
      r.elapsedMs = 3_600_000;
      return r.snapshot(from);
    };
    // Two workers whose live snapshots start at different seconds (one a second behind).
    const merged = mergeSnapshots([worker(3597), worker(3596)]);
    expect(merged.timeline).toHaveLength(3600);
    expect(merged.timeline[3597]!.requests).toBe(200);
    expect(merged.timeline[3597]!.histogram.totalCount).toBe(200);
    expect(merged.timeline[3596]!.starts).toBe(1);
    expect(merged.timeline[10]!.starts).toBe(0);
    expect(merged.timeline[10]!.histogram).toBe(merged.timeline[11]!.histogram);
    expect(merged.timeline[10]!.histogram.totalCount).toBe(0);
    // Filed there after all: that second gets a histogram of its own, and the others stay empty.
    merged.record(0, 200, true, 5, 10_500);
    expect(merged.timeline[10]!.histogram.totalCount).toBe(1);
    expect(merged.timeline[11]!.histogram.totalCount).toBe(0);
    expect(merged.timeline[10]!.histogram).not.toBe(merged.timeline[11]!.histogram);
  });
});
