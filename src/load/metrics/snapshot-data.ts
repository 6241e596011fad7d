/**
 * A Recorder's data as a plain snapshot, and a snapshot's totals added back into a recorder's per-name stats and
 * iterations: the parts of snapshotting and merging that read no private state of the Recorder.
 */
import { addSnapshotHistogram, createHistogram, type Histogram, type HistogramBuckets } from './histogram.ts';
import type { IterationStats, NameStats, RecorderSnapshot, SecondStats, WorkerSnapshot } from './recorder-model.ts';

/** What a snapshot is made of: the recorder's public fields beside its per-name stats. */
export interface SnapshotSource {
  readonly names: readonly string[];
  readonly elapsedMs: number;
  readonly dropped: number;
  readonly errorCodes: ReadonlyMap<string, number>;
  readonly timeline: readonly SecondStats[];
  readonly iterations?: IterationStats | undefined;
}

/** The recorder as plain data, each histogram through `of`, each second's through `second` (by its index). */
export function snapshotOf<H, S>(
  source: SnapshotSource,
  byName: readonly NameStats[],
  timelineFrom: number,
  of: (histogram: Histogram) => H,
  second: (index: number) => S,
): Omit<RecorderSnapshot<H, S>, 'all'> {
  const { iterations } = source;
  return {
    ...(timelineFrom > 0 ? { timelineFrom } : {}),
    names: [...source.names],
    elapsedMs: source.elapsedMs,
    dropped: source.dropped,
    errorCodes: Object.fromEntries(source.errorCodes),
    byName: byName.map((s) => ({
      requests: s.requests,
      failed: s.failed,
      rateLimited: s.rateLimited,
      errors: s.errors,
      statusCodes: Object.fromEntries(s.statusCodes),
      histogram: of(s.histogram),
    })),
    timeline: source.timeline.slice(timelineFrom).map(({ histogram: _, ...counts }, i) => ({ ...counts, histogram: second(timelineFrom + i) })),
    ...(iterations ? { iterations: { count: iterations.count, failed: iterations.failed, failedBy: Object.fromEntries(iterations.failedBy), histogram: of(iterations.histogram) } } : {}),
  };
}

/**
 * Adds a snapshot's per-name counts into `byName` (matched by name; the slot after the names takes errors no
 * request can be blamed for). Its histograms are queued in `pending`, added when first read.
 */
export function addNameTotals(
  byName: NameStats[],
  names: readonly string[],
  snapshot: RecorderSnapshot | WorkerSnapshot,
  pending: Array<{ stats: NameStats; histogram: string | HistogramBuckets }>,
): void {
  // snapshot.all (encoded snapshots only) is the sum of its byName histograms, which are merged here.
  snapshot.byName.forEach((theirs, i) => {
    const index = i >= snapshot.names.length ? names.length : names.indexOf(snapshot.names[i] as string);
    if (index < 0) throw new Error(`cannot merge: request name "${snapshot.names[i]}" is not in this run`);
    const ours = byName[index] as NameStats;
    ours.requests += theirs.requests;
    ours.failed += theirs.failed;
    ours.rateLimited += theirs.rateLimited;
    ours.errors += theirs.errors;
    for (const [code, n] of Object.entries(theirs.statusCodes)) ours.statusCodes.set(Number(code), (ours.statusCodes.get(Number(code)) ?? 0) + n);
    pending.push({ stats: ours, histogram: theirs.histogram });
  });
}

/** A snapshot's flow iterations added into `ours` (made when absent); returns them. */
export function addIterations(ours: IterationStats | undefined, theirs: NonNullable<(RecorderSnapshot | WorkerSnapshot)['iterations']>): IterationStats {
  const it = ours ?? { count: 0, failed: 0, failedBy: new Map<string, number>(), histogram: createHistogram() };
  it.count += theirs.count;
  it.failed += theirs.failed;
  for (const [step, n] of Object.entries(theirs.failedBy)) it.failedBy.set(step, (it.failedBy.get(step) ?? 0) + n);
  addSnapshotHistogram(it.histogram, theirs.histogram);
  return it;
}

/** One second of a snapshot added into ours: counts summed, the generator's delay the largest of them. */
export function addSecond(ours: SecondStats, theirs: RecorderSnapshot['timeline'][number] | WorkerSnapshot['timeline'][number]): void {
  for (const key of ['requests', 'failed', 'status2xx', 'status4xx', 'status5xx', 'rateLimited', 'errors', 'dropped', 'starts', 'lateStarts'] as const) ours[key] += theirs[key] ?? 0;
  // Workers run side by side: the generator was as late as its slowest worker.
  ours.loopDelayMs = Math.max(ours.loopDelayMs, theirs.loopDelayMs ?? 0);
  addSnapshotHistogram(ours.histogram, theirs.histogram);
}
