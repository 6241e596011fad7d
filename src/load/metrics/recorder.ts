/**
 * Everything a scenario measures, recorded on the hot path with plain counters and HDR histograms: overall,
 * per request name, and per second (the time series). `snapshot()` turns it into plain data with encoded
 * histograms (`workerSnapshot()`: with bucket lists, for a load worker's messages); `mergeSnapshots` adds
 * snapshots of workers (or runs) exactly. Thresholds read a `MetricSource`, which a live Recorder and a merged
 * snapshot both are.
 */
import { addSnapshotHistogram, bucketsOf, createCompactHistogram, createHistogram, createSecondHistogram, encodeHistogram, mergeInto, recordMicros, type Histogram, type HistogramBuckets } from './histogram.ts';
import { countsOf, LATE_START_MS, withIteration, newNameStats, newSecond, type Counts, type IterationStats, type MetricSource, type NameStats, type RecorderOptions, type RecorderSnapshot, type SecondStats, type WorkerSnapshot } from './recorder-model.ts';
import { addIterations, addNameTotals, addSecond, snapshotOf } from './snapshot-data.ts';

export { LATE_START_MS, type Counts, type IterationStats, type MetricSource, type RecorderOptions, type RecorderSnapshot, type SecondStats, type WorkerSnapshot } from './recorder-model.ts';

/**
 * The histogram of a second the timeline skipped (nothing filed in it when a later one began; in a live merge of
 * workers' snapshots, every second before the recent ones they carry): one empty histogram shared by all of them,
 * replaced by a histogram of its own when something is filed there after all (Recorder.#second). One for each
 * would cost the live merge a packed histogram per second of the run, every second.
 */
const SKIPPED = createCompactHistogram();
const NO_BUCKETS = bucketsOf(SKIPPED);

export class Recorder implements MetricSource {
  readonly names: readonly string[];
  /** Only flow scenarios record iterations (recordIteration); a mix's request is its own iteration and is not counted twice. */
  iterations?: IterationStats;
  readonly errorCodes = new Map<string, number>();
  readonly timeline: SecondStats[] = [];
  dropped = 0;
  /**
   * Fractional ms, so made a double (NaN) before it is set to 0: a field created as a small integer changes the
   * object's shape at its first fraction, and the run's recorder must keep the shape the warm-up's recorders had.
   */
  elapsedMs = Number.NaN;
  readonly #byName: NameStats[];
  /** Every name's latencies together: derived from #byName when read (once a second at most), not recorded twice. */
  readonly #all = createHistogram();
  #allStale = false;
  readonly #rateLimitedAsFailure: boolean;
  readonly #secondMs: number;
  readonly #packSeconds: boolean;
  /**
   * Each second's encoded histogram as the last snapshot wrote it, with the count it held then (histograms only
   * grow, so an equal count means the same contents). A second is encoded as it is packed, from its fast buckets
   * (far cheaper to read than the packed kind), once this recorder has been snapshotted: a snapshot every second
   * then encodes only the newest second afresh (a worker's sends that one as buckets: nothing afresh).
   */
  readonly #encoded: Array<{ count: number; text: string } | undefined> = [];
  #snapshotted = false;
  /**
   * A worker's recent packed seconds as buckets, made as each is packed (from its fast buckets, not the slow
   * packed kind), kept only from the last workerSnapshot's `timelineFrom` on: its live snapshots then carry no
   * encoding, which the main thread's live merge spent half its time inflating.
   */
  readonly #recentBuckets = new Map<number, { count: number; buckets: HistogramBuckets }>();
  #bucketed = false;
  /**
   * Name histograms of added snapshots, added when first read: a live view that is read only for its counts and
   * recent seconds (the progress line) never decodes them.
   */
  #pendingTotals: Array<{ stats: NameStats; histogram: string | HistogramBuckets }> = [];

  constructor(names: readonly string[], options: RecorderOptions = {}) {
    this.names = [...names];
    // One slot more than names: errors no request can be blamed for (a merged snapshot's names this run lacks).
    this.#byName = [...names.map(newNameStats), newNameStats()];
    this.#rateLimitedAsFailure = options.rateLimitedAsFailure ?? false;
    this.#secondMs = options.secondMs ?? 1000;
    this.#packSeconds = options.packSeconds ?? true;
    this.elapsedMs = 0;
    // Holds objects from the start, as the later recorders' arrays will (V8 learns it from this one): one array kind
    // for the run's recorder and the warm-up's, so the code that files seconds is not thrown away at t0.
    this.timeline.push(undefined as unknown as SecondStats);
    this.timeline.pop();
  }

  /**
   * The second `atMs` falls in. Answers are filed by completion time, which only moves forward, so almost only
   * the newest second takes them: it records into a fast histogram, and when a later second begins it is packed
   * (slower to record into, but a seventh of the memory: an hour of seconds fits).
   * A start or a drop, filed by its intended time, may open the next second a moment early; an answer that still
   * lands in the packed one is recorded there all the same, only slower.
   */
  #second(atMs: number): SecondStats {
    const index = Math.max(0, Math.floor(atMs / this.#secondMs));
    if (index < this.timeline.length) {
      const second = this.timeline[index] as SecondStats;
      if (second.histogram === SKIPPED) second.histogram = this.#packSeconds ? createCompactHistogram() : createSecondHistogram();
      return second;
    }
    const newest = this.timeline[this.timeline.length - 1];
    if (newest && this.#packSeconds) this.#pack(this.timeline.length - 1, newest);
    while (this.timeline.length < index) this.timeline.push(newSecond(SKIPPED));
    const second = newSecond(createSecondHistogram());
    this.timeline.push(second);
    return second;
  }

  /** A second's histogram, once it no longer takes answers, as the packed kind (same buckets: the move is exact). */
  #pack(index: number, second: SecondStats): void {
    if (this.#snapshotted) this.#encodeSecond(index);
    if (this.#bucketed) this.#recentBuckets.set(index, { count: second.histogram.totalCount, buckets: bucketsOf(second.histogram) });
    const packed = createCompactHistogram();
    packed.add(second.histogram);
    second.histogram = packed;
  }

  #encodeSecond(index: number): string {
    const { histogram } = this.timeline[index] as SecondStats;
    const cached = this.#encoded[index];
    if (cached && cached.count === histogram.totalCount) return cached.text;
    const text = encodeHistogram(histogram);
    this.#encoded[index] = { count: histogram.totalCount, text };
    return text;
  }

  /** An answer: `latencyMs` from the intended send time, `atMs` the completion time since the start. */
  record(nameIndex: number, status: number, expected: boolean, latencyMs: number, atMs: number): void {
    const stats = this.#byName[nameIndex] as NameStats;
    const second = this.#second(atMs);
    const micros = latencyMs * 1000;
    const limited = status === 429;
    const failed = limited ? this.#rateLimitedAsFailure && !expected : !expected;
    stats.requests++;
    second.requests++;
    if (failed) {
      stats.failed++;
      second.failed++;
    }
    if (limited) {
      stats.rateLimited++;
      second.rateLimited++;
    }
    if (status >= 200 && status < 300) second.status2xx++;
    else if (status >= 400 && status < 500) second.status4xx++;
    else if (status >= 500) second.status5xx++;
    stats.statusCodes.set(status, (stats.statusCodes.get(status) ?? 0) + 1);
    recordMicros(stats.histogram, micros);
    recordMicros(second.histogram, micros);
    this.#allStale = true;
  }

  /** Index for `recordError` when the request is unknown: counted overall, under no name. */
  get unattributed(): number {
    return this.names.length;
  }

  /**
   * A transport error (no answer): counted as a request and a failure. With `latencyMs` (from the intended send
   * time to the moment it failed or was given up: the open model gives it for every failure, the closed model for
   * timeouts) it is recorded in the latency histograms too, as k6 records timed-out requests' durations, so a
   * latency threshold cannot pass because requests never came back; without it, a latency threshold fails
   * (thresholds/evaluate.ts).
   */
  recordError(nameIndex: number, code: string, atMs: number, latencyMs?: number): void {
    const stats = this.#byName[nameIndex] as NameStats;
    const second = this.#second(atMs);
    if (latencyMs !== undefined) {
      const micros = latencyMs * 1000;
      recordMicros(stats.histogram, micros);
      recordMicros(second.histogram, micros);
      this.#allStale = true;
    }
    stats.requests++;
    stats.failed++;
    stats.errors++;
    second.requests++;
    second.failed++;
    second.errors++;
    this.errorCodes.set(code, (this.errorCodes.get(code) ?? 0) + 1);
  }

  /**
   * A flow iteration ended: `durationMs` from its intended start to its end (think times included, as k6's
   * iteration_duration), `failedStep` the step that failed it, if one did.
   */
  recordIteration(durationMs: number, failedStep?: string): void {
    this.iterations = withIteration(this.iterations, durationMs, failedStep);
  }

  /** An open-model arrival started `lagMs` after its intended time `atMs`. */
  recordStart(atMs: number, lagMs: number): void {
    const second = this.#second(atMs);
    second.starts++;
    if (lagMs > LATE_START_MS) second.lateStarts++;
  }

  /** The generator's event-loop delay (largest in the second that ends at or before `atMs`). */
  recordLoopDelay(atMs: number, delayMs: number): void {
    const second = this.#second(atMs);
    if (delayMs > second.loopDelayMs) second.loopDelayMs = delayMs;
  }

  /** An arrival that found every VU busy (`atMs`: its intended time). */
  recordDropped(atMs: number): void {
    this.dropped++;
    this.#second(atMs).dropped++;
  }

  counts(name?: string): Counts {
    const selected = name === undefined ? this.#byName : this.#byName.filter((_, i) => this.names[i] === name);
    return countsOf(selected);
  }

  histogram(name?: string): Histogram {
    if (name === undefined) return this.#allHistogram();
    this.#settleTotals();
    const index = this.names.indexOf(name);
    return index < 0 ? createHistogram() : (this.#byName[index] as NameStats).histogram;
  }

  #allHistogram(): Histogram {
    this.#settleTotals();
    if (this.#allStale) {
      this.#all.reset();
      for (const s of this.#byName) mergeInto(this.#all, s.histogram);
      this.#allStale = false;
    }
    return this.#all;
  }

  /**
   * The recorder as plain, JSON-safe data, histograms encoded. `timelineFrom`: only the seconds from that one on
   * (a live view: the recent seconds only).
   */
  snapshot(timelineFrom = 0): RecorderSnapshot {
    this.#snapshotted = true;
    return { ...this.#snapshotOf(timelineFrom, encodeHistogram, (index) => this.#encodeSecond(index)), all: encodeHistogram(this.#allHistogram()) };
  }

  /**
   * What a load worker posts the main thread, live and at the end: the snapshot with its histograms as buckets
   * (histogram.ts HistogramBuckets: no deflate in the worker, nothing to inflate in the merge) and without `all`,
   * which a merge never reads. Structured clone only, not JSON.
   */
  workerSnapshot(timelineFrom = 0): WorkerSnapshot {
    this.#snapshotted = true;
    this.#bucketed = true;
    for (const index of this.#recentBuckets.keys()) if (index < timelineFrom) this.#recentBuckets.delete(index);
    return this.#snapshotOf(timelineFrom, bucketsOf, (index) => {
      // The newest second is still in fast buckets, cheap to read. A packed one is a hundred times dearer (the packed kind's
      // buckets are slow to read): it goes as the buckets or the encoding made when it was packed, from fast buckets.
      const { histogram } = this.timeline[index] as SecondStats;
      if (histogram === SKIPPED) return NO_BUCKETS;
      if (index === this.timeline.length - 1) return bucketsOf(histogram);
      const recent = this.#recentBuckets.get(index);
      return recent && recent.count === histogram.totalCount ? recent.buckets : this.#encodeSecond(index);
    });
  }

  #snapshotOf<H, S>(timelineFrom: number, of: (histogram: Histogram) => H, second: (index: number) => S): Omit<RecorderSnapshot<H, S>, 'all'> {
    this.#settleTotals();
    return snapshotOf(this, this.#byName, timelineFrom, of, second);
  }

  /**
   * Adds snapshots (workers', or other runs' with the same request names) into this recorder. Their timelines are
   * added second by second, every snapshot's second t before any second t + 1, so each second takes its adds while
   * it is the newest one (fast buckets) and is packed once, after them: adding into packed seconds, snapshot after
   * snapshot, is many times slower (docs/performance.md).
   */
  add(...snapshots: Array<RecorderSnapshot | WorkerSnapshot>): void {
    for (const snapshot of snapshots) this.#addTotals(snapshot);
    const from = (s: RecorderSnapshot | WorkerSnapshot): number => s.timelineFrom ?? 0;
    const first = Math.min(...snapshots.map(from));
    const end = Math.max(...snapshots.map((s) => from(s) + s.timeline.length));
    for (let t = first; t < end; t++) {
      for (const snapshot of snapshots) {
        const theirs = snapshot.timeline[t - from(snapshot)];
        if (!theirs) continue;
        addSecond(this.#second(t * this.#secondMs), theirs);
      }
    }
  }

  #settleTotals(): void {
    if (this.#pendingTotals.length === 0) return;
    for (const { stats, histogram } of this.#pendingTotals) addSnapshotHistogram(stats.histogram, histogram);
    this.#pendingTotals = [];
  }

  #addTotals(snapshot: RecorderSnapshot | WorkerSnapshot): void {
    this.elapsedMs = Math.max(this.elapsedMs, snapshot.elapsedMs);
    this.dropped += snapshot.dropped;
    for (const [code, n] of Object.entries(snapshot.errorCodes)) this.errorCodes.set(code, (this.errorCodes.get(code) ?? 0) + n);
    addNameTotals(this.#byName, this.names, snapshot, this.#pendingTotals);
    this.#allStale = true;
    if (snapshot.iterations) this.iterations = addIterations(this.iterations, snapshot.iterations);
  }

}

/** The exact merge of several snapshots (same request names). */
export function mergeSnapshots(snapshots: ReadonlyArray<RecorderSnapshot | WorkerSnapshot>, options: RecorderOptions = {}): Recorder {
  const names = [...new Set(snapshots.flatMap((s) => s.names))];
  const merged = new Recorder(names, options);
  if (snapshots.length > 0) merged.add(...snapshots);
  return merged;
}
