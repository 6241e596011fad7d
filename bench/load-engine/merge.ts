/**
 * bench/load-engine, merge section: what the workers' once-a-second live view costs the main thread, and a worker
 * its snapshot (no peer does this: it is the harness's own overhead, in ms per second of the run).
 *   - a worker's live snapshot (its 3 recent seconds and its totals), taken every second while it records
 *     5 000 answers a second;
 *   - the live merge of two such snapshots (pool.ts `live()`, once a second on the main thread);
 *   - the same an hour into a run (second 3 600: every earlier second is in the merged timeline);
 *   - the final merge of two workers' full snapshots after 60 s.
 */
import { mergeSnapshots, Recorder } from '../../src/load/metrics/recorder.ts';
import { seededRandom } from '../../src/load/random.ts';
import { LIVE_SECONDS } from '../../src/load/workers/protocol.ts';
import { median, out } from './measure.ts';

const PER_SECOND = 5000;

function timeMs(fn: () => unknown, times = 15): number {
  const got: number[] = [];
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    fn();
    got.push(performance.now() - started);
  }
  return median(got) as number;
}

/** A worker's recorder after `seconds` seconds of answers, snapshotted each second as a worker is, and each snapshot's cost. */
function worker(seed: number, seconds: number): { recorder: Recorder; snapshotMs: number[] } {
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
    recorder.snapshot(Math.max(0, recorder.timeline.length - LIVE_SECONDS));
    snapshotMs.push(performance.now() - started);
  }
  return { recorder, snapshotMs };
}

export function mergeSection(): void {
  out(`\n== merge: the workers' live view and final merge, ${PER_SECOND} answers a second per worker (ms, median of 15) ==`);
  const a = worker(1, 60);
  const b = worker(2, 60);
  out(`a worker's live snapshot (${LIVE_SECONDS} recent seconds + totals), seconds 10..60: ${median(a.snapshotMs.slice(10))!.toFixed(2)} ms`);
  const live = [a.recorder.snapshot(57), b.recorder.snapshot(57)];
  out(`live merge of 2 workers' snapshots (main thread, once a second): ${timeMs(() => mergeSnapshots(live)).toFixed(2)} ms`);
  const full = [a.recorder.snapshot(), b.recorder.snapshot()];
  out(`final merge of 2 workers' full snapshots after 60 s: ${timeMs(() => mergeSnapshots(full), 5).toFixed(2)} ms`);
  const late = new Recorder(['get']);
  for (let s = 0; s < 3600; s++) late.recordStart(s * 1000, 0);
  for (let i = 0; i < PER_SECOND; i++) late.record(0, 200, true, 0.3, 3_599_000 + (i * 1000) / PER_SECOND);
  late.elapsedMs = 3_600_000;
  const hour = late.snapshot(3600 - LIVE_SECONDS);
  out(`live merge of 2 workers' snapshots an hour in (second 3 600): ${timeMs(() => mergeSnapshots([hour, hour])).toFixed(2)} ms`);
}
