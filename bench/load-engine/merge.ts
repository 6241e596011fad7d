/**
 * bench/load-engine, merge section: what the workers' once-a-second live view costs the main thread, and a worker
 * its snapshot (no peer does this: it is the harness's own overhead, in ms per second of the run).
 *   - a worker's live snapshot (its 3 recent seconds and its totals: Recorder.workerSnapshot, histograms as
 *     buckets), taken every second while it records 5 000 answers a second; beside it the encoded, JSON-safe
 *     snapshot() that workers posted until then;
 *   - the live merge of two such snapshots (pool.ts `live()`, once a second on the main thread), read as the
 *     progress line reads it (counts and the last second's p99), and with the totals' p99 read too (a threshold);
 *   - the same an hour into a run (second 3 600: every earlier second is in the merged timeline);
 *   - the final merge of two workers' full snapshots after 60 s.
 * Each figure is the median of repeated calls, so the code is compiled; the first call of each is printed too:
 * the live view runs once a second, so its first seconds run code V8 has not optimised yet.
 */
import { percentileMs } from '../../src/load/metrics/histogram.ts';
import { mergeSnapshots, Recorder } from '../../src/load/metrics/recorder.ts';
import { seededRandom } from '../../src/load/random.ts';
import { LIVE_SECONDS } from '../../src/load/workers/protocol.ts';
import { median, out } from './measure.ts';

const PER_SECOND = 5000;

/** The first call's ms and the median's over `times` calls. */
function timeMs(fn: () => unknown, times = 15): string {
  const got: number[] = [];
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    fn();
    got.push(performance.now() - started);
  }
  return `${(median(got) as number).toFixed(2)} ms (first call ${(got[0] as number).toFixed(2)} ms)`;
}

/**
 * A worker's recorder after `seconds` seconds of answers, snapshotted each second as a worker is (`encoded`: with
 * snapshot(), as workers were until issue 21's buckets), and each snapshot's cost.
 */
function worker(seed: number, seconds: number, encoded = false): { recorder: Recorder; snapshotMs: number[] } {
  const random = seededRandom(seed);
  const recorder = new Recorder(['get']);
  const snapshotMs: number[] = [];
  for (let s = 0; s < seconds; s++) {
    for (let i = 0; i < PER_SECOND; i++) {
      // Latencies as against nginx: mostly under a millisecond, one in a hundred tens of ms.
      const latency = 0.05 + random() * (random() < 0.01 ? 50 : 1);
      recorder.record(0, 200, true, latency, s * 1000 + (i * 1000) / PER_SECOND);
    }
    recorder.elapsedMs = (s + 1) * 1000;
    const started = performance.now();
    const from = Math.max(0, recorder.timeline.length - LIVE_SECONDS);
    if (encoded) recorder.snapshot(from);
    else recorder.workerSnapshot(from);
    snapshotMs.push(performance.now() - started);
  }
  return { recorder, snapshotMs };
}

/** Reads a live view as run-scenario.ts's monitor does (counts, the last full second's p99), and optionally the totals. */
function read(live: Recorder, totals: boolean): void {
  live.counts();
  percentileMs(live.timeline[live.timeline.length - 2]!.histogram, 99);
  if (totals) percentileMs(live.histogram(), 99);
}

export function mergeSection(): void {
  out(`\n== merge: the workers' live view and final merge, ${PER_SECOND} answers a second per worker (ms, median of 15) ==`);
  const a = worker(1, 60);
  const b = worker(2, 60);
  const encoded = worker(1, 60, true);
  const snapshotMs = (w: { snapshotMs: number[] }): string => `${median(w.snapshotMs.slice(10))!.toFixed(2)} ms (first ${w.snapshotMs[0]!.toFixed(2)} ms)`;
  out(`a worker's live snapshot (${LIVE_SECONDS} recent seconds + totals), seconds 10..60: ${snapshotMs(a)}; encoded, as before: ${snapshotMs(encoded)}`);
  const live = [a.recorder.workerSnapshot(57), b.recorder.workerSnapshot(57)];
  const options = { packSeconds: false };
  out(`live merge of 2 workers' snapshots (main thread, once a second), read for the progress line: ${timeMs(() => read(mergeSnapshots(live, options), false))}`);
  out(`  … and its totals' p99 read too (a threshold): ${timeMs(() => read(mergeSnapshots(live, options), true))}`);
  const liveEncoded = [encoded.recorder.snapshot(57), encoded.recorder.snapshot(57)];
  out(`  … from encoded snapshots into packed seconds, as before: ${timeMs(() => read(mergeSnapshots(liveEncoded), true))}`);
  const full = [a.recorder.workerSnapshot(), b.recorder.workerSnapshot()];
  out(`final merge of 2 workers' full snapshots after 60 s: ${timeMs(() => mergeSnapshots(full).histogram(), 5)}`);
  const late = new Recorder(['get']);
  for (let s = 0; s < 3600; s++) late.recordStart(s * 1000, 0);
  for (let i = 0; i < PER_SECOND; i++) late.record(0, 200, true, 0.3, 3_599_000 + (i * 1000) / PER_SECOND);
  late.elapsedMs = 3_600_000;
  const hour = late.workerSnapshot(3600 - LIVE_SECONDS);
  out(`live merge of 2 workers' snapshots an hour in (second 3 600): ${timeMs(() => read(mergeSnapshots([hour, hour], options), true))}`);
}
