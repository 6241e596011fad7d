/**
 * Everything a scenario measures, recorded on the hot path with plain counters and HDR histograms: overall,
 * per request name, and per second (the time series). `snapshot()` turns it into plain data with encoded
 * histograms (`workerSnapshot()`: with bucket lists, for a load worker's messages); `mergeSnapshots` adds
 * snapshots of workers (or runs) exactly. Thresholds read a `MetricSource`, which a live Recorder and a merged
 * snapshot both are.
 */
import { addSnapshotHistogram, bucketsOf, createCompactHistogram, createHistogram, createSecondHistogram, encodeHistogram, mergeInto, recordMicros, type Histogram, type HistogramBuckets } from './histogram.ts';

/** What thresholds and summaries read; `name` selects one request name (the `{name:x}` tag). */
export interface MetricSource {
  readonly names: readonly string[];
  readonly elapsedMs: number;
  readonly dropped: number;
  counts(name?: string): Counts;
  histogram(name?: string): Histogram;
  /** Flow scenarios' iterations (absent for a mix). */
  readonly iterations?: IterationStats | undefined;
}

export interface Counts {
  /** Answers plus transport errors. */
  requests: number;
  /** Unexpected statuses and transport errors (and 429s with rateLimitedAsFailure). */
  failed: number;
  rateLimited: number;
  errors: number;
  statusCodes: Record<string, number>;
}

export interface SecondStats {
  requests: number;
  failed: number;
  status2xx: number;
  status4xx: number;
  status5xx: number;
  rateLimited: number;
  errors: number;
  dropped: number;
  /** Open model: arrivals started this second, and how many of them started later than GENERATOR_BOUND.lateStartMs. */
  starts: number;
  lateStarts: number;
  /** The generator's largest event-loop delay seen this second, ms (several workers: the largest of them). */
  loopDelayMs: number;
  histogram: Histogram;
}

/** The generator's own lag (src/load/metrics/generator-bound.ts reads it): a start this late counts as late. */
export const LATE_START_MS = 10;

interface NameStats extends Omit<Counts, 'statusCodes'> {
  statusCodes: Map<number, number>;
  histogram: Histogram;
}

function newNameStats(): NameStats {
  return { requests: 0, failed: 0, rateLimited: 0, errors: 0, statusCodes: new Map(), histogram: createHistogram() };
}

function newSecond(histogram: Histogram): SecondStats {
  // loopDelayMs takes fractions: it starts as a double (NaN, then 0). Created as a small integer, the first fraction
  // stored in any second changes the shape of every second, and V8 throws away the hot path's optimised code.
  const second = { requests: 0, failed: 0, status2xx: 0, status4xx: 0, status5xx: 0, rateLimited: 0, errors: 0, dropped: 0, starts: 0, lateStarts: 0, loopDelayMs: NaN, histogram };
  second.loopDelayMs = 0;
  return second;
}

/**
 * The histogram of a second the timeline skipped (nothing filed in it when a later one began; in a live merge of
 * workers' snapshots, every second before the recent ones they carry): one empty histogram shared by all of them,
 * replaced by a histogram of its own when something is filed there after all (Recorder.#second). Making one for
 * each, as this did until issue 21, cost the live merge a packed histogram per second of the run, every second:
 * 3 600 of them a second an hour into a soak.
 */
const SKIPPED = createCompactHistogram();
const NO_BUCKETS = bucketsOf(SKIPPED);

export interface RecorderOptions {
  /** Count 429 answers as failures too. @default false */
  rateLimitedAsFailure?: boolean;
  /**
   * Length of a timeline entry in ms. Only the open model's warm-up changes it (100: a scratch recorder whose
   * "seconds" end ten times a second, so the code that closes a second, and the object shapes it leaves, have run
   * before t0; V8 otherwise recompiles the hot path at the run's first second boundary). @default 1000
   */
  secondMs?: number;
  /**
   * Pack each second when the next begins (the compact kind: an hour of seconds in 2 KiB each). A live view that
   * holds a few recent seconds and is built afresh every second (a merge of workers' live snapshots) skips it:
   * packing was most of that merge's cost. @default true
   */
  packSeconds?: boolean;
}

/** Flow scenarios' iterations (k6's iterations and iteration_duration); failedBy: the step that failed each failed one. */
export interface IterationStats {
  count: number;
  failed: number;
  failedBy: Map<string, number>;
  histogram: Histogram;
}

export class Recorder implements MetricSource {
  readonly names: readonly string[];
  /** Only flow scenarios record iterations (recordIteration); a mix's request is its own iteration and is not counted twice. */
  iterations?: IterationStats;
  readonly errorCodes = new Map<string, number>();
  readonly timeline: SecondStats[] = [];
  dropped = 0;
  /**
   * Fractional ms. Made a double (NaN) before it is set to 0 in the constructor: a field created as a small integer
   * changes its representation, and with it the objects' shape, at its first fraction — the open model's scratch
   * recorders get one during the warm-up, and the run's recorder, made before them, then had a shape the hot path
   * no longer expected: V8 threw its code away at t0 (`--trace-deopt`: Recorder.recordStart, wrong map).
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
   * (0.05 ms; the packed kind takes 0.9 ms), once this recorder has been snapshotted: a snapshot every second
   * then encodes only the newest second afresh (a worker's sends that one as buckets: nothing afresh).
   */
  readonly #encoded: Array<{ count: number; text: string } | undefined> = [];
  #snapshotted = false;
  /**
   * A worker's recent packed seconds as buckets, made as each is packed (0.02 ms from its fast buckets; 2 ms from
   * the packed kind), kept only from the last workerSnapshot's `timelineFrom` on: its live snapshots then carry no
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
    // Holds objects from the start: V8 learns from the `[]` above that its arrays come to hold objects and makes the
    // later ones so at once, so the run's recorder (made before the warm-up's scratch ones) kept an array of another
    // kind, and the code that files seconds deoptimised at t0 (`--trace-deopt`: Recorder.#second, wrong map).
    this.timeline.push(undefined as unknown as SecondStats);
    this.timeline.pop();
  }

  /**
   * The second `atMs` falls in. Answers are filed by completion time, which only moves forward, so almost only
   * the newest second takes them: it records into a fast histogram (about 60 ns a value), and when a later second
   * begins it is packed (about 350 ns a value to record into, but 2 KiB instead of 14 KiB: an hour of seconds).
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
    const it = (this.iterations ??= { count: 0, failed: 0, failedBy: new Map(), histogram: createHistogram() });
    it.count++;
    recordMicros(it.histogram, durationMs * 1000);
    if (failedStep !== undefined) {
      it.failed++;
      it.failedBy.set(failedStep, (it.failedBy.get(failedStep) ?? 0) + 1);
    }
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
    const out: Counts = { requests: 0, failed: 0, rateLimited: 0, errors: 0, statusCodes: {} };
    for (const s of selected) {
      out.requests += s.requests;
      out.failed += s.failed;
      out.rateLimited += s.rateLimited;
      out.errors += s.errors;
      for (const [code, n] of s.statusCodes) out.statusCodes[code] = (out.statusCodes[code] ?? 0) + n;
    }
    return out;
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
      // The newest second is still in fast buckets, read in 0.02 ms. A packed one would take 2 ms (the packed kind's
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
    return {
      ...(timelineFrom > 0 ? { timelineFrom } : {}),
      names: [...this.names],
      elapsedMs: this.elapsedMs,
      dropped: this.dropped,
      errorCodes: Object.fromEntries(this.errorCodes),
      byName: this.#byName.map((s) => ({
        requests: s.requests,
        failed: s.failed,
        rateLimited: s.rateLimited,
        errors: s.errors,
        statusCodes: Object.fromEntries(s.statusCodes),
        histogram: of(s.histogram),
      })),
      timeline: this.timeline.slice(timelineFrom).map(({ histogram: _, ...counts }, i) => ({ ...counts, histogram: second(timelineFrom + i) })),
      ...(this.iterations ? { iterations: { count: this.iterations.count, failed: this.iterations.failed, failedBy: Object.fromEntries(this.iterations.failedBy), histogram: of(this.iterations.histogram) } } : {}),
    };
  }

  /**
   * Adds snapshots (workers', or other runs' with the same request names) into this recorder. Their timelines are
   * added second by second, every snapshot's second t before any second t + 1, so each second takes its adds while
   * it is the newest one (fast buckets) and is packed once, after them: adding into packed seconds, snapshot after
   * snapshot, made the final merge of two workers after 60 s take 0.9 s (docs/performance.md).
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
        const ours = this.#second(t * this.#secondMs);
        for (const key of ['requests', 'failed', 'status2xx', 'status4xx', 'status5xx', 'rateLimited', 'errors', 'dropped', 'starts', 'lateStarts'] as const) ours[key] += theirs[key] ?? 0;
        // Workers run side by side: the generator was as late as its slowest worker.
        ours.loopDelayMs = Math.max(ours.loopDelayMs, theirs.loopDelayMs ?? 0);
        addSnapshotHistogram(ours.histogram, theirs.histogram);
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
    // snapshot.all (encoded snapshots only) is the sum of its byName histograms, which are merged below.
    snapshot.byName.forEach((theirs, i) => {
      const index = i >= snapshot.names.length ? this.unattributed : this.names.indexOf(snapshot.names[i] as string);
      if (index < 0) throw new Error(`cannot merge: request name "${snapshot.names[i]}" is not in this run`);
      const ours = this.#byName[index] as NameStats;
      ours.requests += theirs.requests;
      ours.failed += theirs.failed;
      ours.rateLimited += theirs.rateLimited;
      ours.errors += theirs.errors;
      for (const [code, n] of Object.entries(theirs.statusCodes)) ours.statusCodes.set(Number(code), (ours.statusCodes.get(Number(code)) ?? 0) + n);
      this.#pendingTotals.push({ stats: ours, histogram: theirs.histogram });
    });
    this.#allStale = true;
    if (snapshot.iterations) {
      const it = (this.iterations ??= { count: 0, failed: 0, failedBy: new Map(), histogram: createHistogram() });
      it.count += snapshot.iterations.count;
      it.failed += snapshot.iterations.failed;
      for (const [step, n] of Object.entries(snapshot.iterations.failedBy)) it.failedBy.set(step, (it.failedBy.get(step) ?? 0) + n);
      addSnapshotHistogram(it.histogram, snapshot.iterations.histogram);
    }
  }
}

/**
 * A Recorder as plain data: `snapshot()`'s, JSON-safe, with encoded histograms (H = string); a load worker's
 * (`workerSnapshot()`) holds them as buckets instead.
 */
export interface RecorderSnapshot<H = string, S = H> {
  names: string[];
  /** The second `timeline[0]` is (a partial snapshot). @default 0 */
  timelineFrom?: number;
  elapsedMs: number;
  dropped: number;
  errorCodes: Record<string, number>;
  all: H;
  byName: Array<Omit<Counts, 'statusCodes'> & { statusCodes: Record<string, number>; histogram: H }>;
  /** Flow scenarios only. */
  iterations?: { count: number; failed: number; failedBy: Record<string, number>; histogram: H };
  /** The generator fields are optional so snapshots from before they existed still merge. */
  timeline: Array<Omit<SecondStats, 'histogram' | 'starts' | 'lateStarts' | 'loopDelayMs'> & Partial<Pick<SecondStats, 'starts' | 'lateStarts' | 'loopDelayMs'>> & { histogram: S }>;
}

/**
 * What a load worker posts the main thread (Recorder.workerSnapshot): histograms as buckets, but the timeline's
 * packed seconds encoded; no `all`.
 */
export type WorkerSnapshot = Omit<RecorderSnapshot<HistogramBuckets, HistogramBuckets | string>, 'all'>;

/** The exact merge of several snapshots (same request names). */
export function mergeSnapshots(snapshots: ReadonlyArray<RecorderSnapshot | WorkerSnapshot>, options: RecorderOptions = {}): Recorder {
  const names = [...new Set(snapshots.flatMap((s) => s.names))];
  const merged = new Recorder(names, options);
  if (snapshots.length > 0) merged.add(...snapshots);
  return merged;
}
