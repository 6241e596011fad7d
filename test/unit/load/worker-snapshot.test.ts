/**
 * What a load worker posts the main thread (Recorder.workerSnapshot): histograms as bucket lists, recent packed
 * seconds as the buckets made when they were packed. Merged, it must give exactly what the encoded, JSON-safe
 * snapshot gives, and what one recorder of every answer gives (min and max included), through structured clone.
 */
import { describe, expect, it } from 'vitest';
import { addBuckets, bucketsOf, createCompactHistogram, createHistogram, createSecondHistogram, encodeHistogram, recordMicros, statsMs, summarizeLatency } from '../../../src/load/metrics/histogram.ts';
import { mergeSnapshots, Recorder, type WorkerSnapshot } from '../../../src/load/metrics/recorder.ts';
import { buildScenarioResult } from '../../../src/load/metrics/summarize.ts';
import { seededRandom } from '../../../src/load/random.ts';
import type { Scenario } from '../../../src/load/scenario/types.ts';

const scenario: Scenario = { name: 's', executor: 'constant-arrival-rate', credential: 'loadKey', requests: [], thresholds: {}, rateLimitedAsFailure: false, timeout: '10s' };

/** As a worker's message arrives: through structured clone (the buckets are typed arrays, not JSON). */
const posted = (snapshot: WorkerSnapshot): WorkerSnapshot => structuredClone(snapshot);

describe('histogram buckets', () => {
  it('carry every count, and the exact min and max, into a histogram of the same kind', () => {
    for (const make of [createHistogram, createSecondHistogram, createCompactHistogram]) {
      const from = make();
      const random = seededRandom(3);
      for (let i = 0; i < 20_000; i++) recordMicros(from, random() < 0.01 ? 100_000 + random() * 5_000_000 : 50 + random() * 5_000);
      const into = make();
      addBuckets(into, structuredClone(bucketsOf(from)));
      expect(into.totalCount).toBe(from.totalCount);
      expect(encodeHistogram(into)).toBe(encodeHistogram(from));
      expect(summarizeLatency(into)).toEqual(summarizeLatency(from));
      expect(statsMs(into)).toEqual(statsMs(from));
      expect(into.minNonZeroValue).toBe(from.minNonZeroValue);
      expect(into.maxValue).toBe(from.maxValue);
    }
  });

  it('keep min and max apart when one bucket holds both, and are empty for an empty histogram', () => {
    const from = createHistogram();
    // 3 significant digits: 100 000 and 100 020 µs share a bucket (its width there is 64).
    recordMicros(from, 100_000);
    recordMicros(from, 100_020);
    recordMicros(from, 100_010);
    const buckets = bucketsOf(from);
    expect([...buckets.values]).toEqual([100_000, 100_020]);
    expect([...buckets.counts]).toEqual([2, 1]);
    const into = createHistogram();
    addBuckets(into, buckets);
    expect([into.minNonZeroValue, into.maxValue, into.totalCount]).toEqual([100_000, 100_020, 3]);
    expect(bucketsOf(createHistogram()).values).toHaveLength(0);
  });
});

describe('worker snapshots', () => {
  function fill(recorder: Recorder, seed: number, seconds: number, snapshotEach?: (r: Recorder, second: number) => void): void {
    const random = seededRandom(seed);
    for (let second = 0; second < seconds; second++) {
      for (let i = 0; i < 500; i++) {
        const latency = random() < 0.01 ? 200 + random() * 800 : random() * 20;
        const status = random() < 0.05 ? 429 : 201;
        recorder.record(random() < 0.7 ? 0 : 1, status, status === 201, latency, second * 1000 + i * 2);
      }
      // Late: filed in a second a live snapshot already carried (packed by now, and its recent buckets stale).
      if (second >= 2) recorder.recordError(0, 'ECONNRESET', (second - 2) * 1000 + 10, 40);
      recorder.recordDropped(second * 1000 + 500);
      recorder.recordIteration(3 + random() * 10, random() < 0.1 ? 'send' : undefined);
      recorder.elapsedMs = (second + 1) * 1000;
      snapshotEach?.(recorder, second);
    }
  }

  it('merged after live snapshots every second, give exactly the encoded snapshots’ and one recorder’s result', () => {
    const names = ['send', 'list'];
    const single = new Recorder(names);
    const workers = [new Recorder(names), new Recorder(names)];
    const encoded = [new Recorder(names), new Recorder(names)];
    let lastLive: WorkerSnapshot[] = [];
    workers.forEach((w, i) => {
      fill(w, 10 + i, 8, (r) => (lastLive[i] = posted(r.workerSnapshot(Math.max(0, r.timeline.length - 3)))));
      fill(encoded[i]!, 10 + i, 8);
      fill(single, 10 + i, 8);
    });
    const fromWorkers = mergeSnapshots(workers.map((w) => posted(w.workerSnapshot())));
    const fromEncoded = mergeSnapshots(encoded.map((r) => JSON.parse(JSON.stringify(r.snapshot()))));
    const a = buildScenarioResult(scenario, fromWorkers, [], '');
    expect(a).toEqual(buildScenarioResult(scenario, fromEncoded, [], ''));
    expect({ ...a, histograms: undefined }).toEqual({ ...buildScenarioResult(scenario, single, [], ''), histograms: undefined });
    expect(a.requests).toBe(2 * (8 * 500 + 6));
    expect(statsMs(fromWorkers.histogram('send'))).toEqual(statsMs(single.histogram('send')));
    expect(fromWorkers.iterations?.count).toBe(16);

    // The last live view: totals of the whole run so far, the three recent seconds, each as one recorder has it.
    expect(lastLive.every((s) => s.timelineFrom === 5 && s.timeline.length === 3)).toBe(true);
    const live = mergeSnapshots(lastLive, { packSeconds: false });
    expect(live.counts()).toEqual(single.counts());
    expect(encodeHistogram(live.histogram())).toBe(encodeHistogram(single.histogram()));
    for (const t of [5, 6, 7]) {
      expect(live.timeline[t]!.requests).toBe(single.timeline[t]!.requests);
      expect(summarizeLatency(live.timeline[t]!.histogram)).toEqual(summarizeLatency(single.timeline[t]!.histogram));
    }
    expect(live.timeline[2]!.histogram.totalCount).toBe(0);
  });

  it('carry no encoding in a live snapshot, and the run’s older seconds encoded in the final one', () => {
    const r = new Recorder(['a']);
    const live: WorkerSnapshot[] = [];
    for (let second = 0; second < 6; second++) {
      for (let i = 0; i < 100; i++) r.record(0, 200, true, 1 + (i % 7), second * 1000 + i * 10);
      r.elapsedMs = (second + 1) * 1000;
      live.push(r.workerSnapshot(Math.max(0, r.timeline.length - 3)));
    }
    const strings = (s: WorkerSnapshot): number => s.timeline.filter((t) => typeof t.histogram === 'string').length;
    expect(live.map(strings)).toEqual([0, 0, 0, 0, 0, 0]);
    expect(live.every((s) => !('all' in s) && s.byName.every((n) => typeof n.histogram !== 'string'))).toBe(true);
    const final = r.workerSnapshot();
    // Seconds 0-2 from the encodings made as they were packed; 3-4 from the recent buckets; 5 still fast.
    expect(final.timeline.map((t) => typeof t.histogram)).toEqual(['string', 'string', 'string', 'object', 'object', 'object']);
  });

  it('add their name histograms when first read: counts at once, the same histograms either way', () => {
    const w = new Recorder(['a']);
    fill(w, 5, 3);
    const snapshot = posted(w.workerSnapshot());
    const lazy = mergeSnapshots([snapshot, snapshot]);
    expect(lazy.counts().requests).toBe(2 * w.counts().requests);
    // Recorded into before it is read: the pending totals are still added (addition does not care about order).
    lazy.record(0, 200, true, 2, 2500);
    expect(lazy.histogram('a').totalCount).toBe(2 * w.histogram('a').totalCount + 1);
    expect(lazy.histogram().totalCount).toBe(2 * w.histogram().totalCount + 1);
    const again = mergeSnapshots([lazy.snapshot()]);
    expect(again.histogram('a').totalCount).toBe(lazy.histogram('a').totalCount);
  });
});
