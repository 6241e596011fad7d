/**
 * N k6 runners' samples → ONE scenario result, judged once. k6-operator (and any set of k6 processes on execution
 * segments) leaves each runner judging its thresholds on its own slice; a p99 every runner passes can fail on the
 * union, and the other way round. Here every runner's file is read in one streaming pass into the harness's own
 * recorders (HDR histograms per request name and per second, src/load/metrics/), the runners are merged by adding
 * histograms and counts — exact, as merging histograms is — and the scenario's thresholds are evaluated on the
 * union by the harness's k6-threshold evaluator (src/load/thresholds/), the same code `harness load` uses.
 *
 * Percentiles come from the histograms (3 significant digits): a merged pX is the value of the sample of rank
 * max(1, ceil(X/100 × n)) among all n samples, to within 0.1 % + 1 µs above it and 1 µs below (k6's value rounded to the whole
 * µs). k6 itself interpolates between neighbouring samples; both are within that bound of the same order statistic.
 */
import { basename } from 'node:path';
import { ConfigError } from '../errors.ts';
import { summarizeLatency } from '../load/metrics/histogram.ts';
import { mergeSnapshots, Recorder, type RecorderSnapshot } from '../load/metrics/recorder.ts';
import { buildScenarioResult } from '../load/metrics/summarize.ts';
import type { ScenarioResult, ThresholdResult } from '../load/result.ts';
import type { Scenario } from '../load/scenario/types.ts';
import { evaluateThresholds } from '../load/thresholds/evaluate.ts';
import { parseThresholds } from '../load/thresholds/parse.ts';
import type { K6RunnerReport, K6RunnersReport } from '../reporters/report-load.ts';
import { readSamples, type ReadProgress, type RequestSample, type SampleSink } from './read-samples.ts';

/** The bound every merged percentile keeps (src/load/metrics/histogram.ts: 3 significant digits, whole µs). */
export const PERCENTILE_PRECISION: K6RunnersReport['precision'] = {
  relative: 0.001,
  absoluteMs: 0.001,
  rank: 'max(1, ceil(p/100 × n))',
  text: 'each percentile is the sample of rank max(1, ceil(p/100 × n)) (nearest rank) of all n samples together, to within 1 µs below and 0.1 % + 1 µs above: HDR histogram resolution, never an average of runners\' percentiles',
};

/** One runner's file, read into per-name recorders on its own clock (t0: the whole second of its first sample). */
class RunnerSamples implements SampleSink {
  t0: number | undefined;
  first = Infinity;
  last = -Infinity;
  readonly byName = new Map<string, Recorder>();
  /** Dropped arrivals have no request name. */
  readonly drops = new Recorder([], { rateLimitedAsFailure: true });
  readonly instanceIds = new Set<string>();

  #at(timeMs: number): number {
    if (this.t0 === undefined) this.t0 = Math.floor(timeMs / 1000) * 1000;
    if (timeMs < this.first) this.first = timeMs;
    if (timeMs > this.last) this.last = timeMs;
    return timeMs - this.t0;
  }

  request(s: RequestSample): void {
    const at = this.#at(s.timeMs);
    if (s.instanceId !== undefined) this.instanceIds.add(s.instanceId);
    let recorder = this.byName.get(s.name);
    if (!recorder) {
      // rateLimitedAsFailure: a 429 is failed exactly when k6 said so (expected_response false), as http_req_failed.
      recorder = new Recorder([s.name], { rateLimitedAsFailure: true });
      this.byName.set(s.name, recorder);
    }
    // k6 records a duration for a request that got no answer too (status 0, error_code says why).
    if (s.status === 0) recorder.recordError(0, `k6 error ${s.errorCode ?? 'unknown'}`, at, s.durationMs);
    else recorder.record(0, s.status, s.expected, s.durationMs, at);
  }

  dropped(timeMs: number, count: number, instanceId?: string): void {
    const at = this.#at(timeMs);
    if (instanceId !== undefined) this.instanceIds.add(instanceId);
    for (let i = 0; i < count; i++) this.drops.recordDropped(at);
  }

  /** Snapshots on the union's clock: the timeline shifted by whole seconds from `unionT0`. */
  snapshots(unionT0: number): RecorderSnapshot[] {
    const shift = this.t0 === undefined ? 0 : Math.round((this.t0 - unionT0) / 1000);
    return [...this.byName.values(), this.drops].map((r) => ({ ...r.snapshot(), timelineFrom: shift }));
  }
}

export interface MergeInput {
  files: readonly string[];
  /** The scenario the script was exported from: its thresholds, request names and config. */
  scenario: Scenario;
  progress?: (p: ReadProgress) => void;
  progressEveryMs?: number;
}

export interface MergeOutcome {
  result: ScenarioResult & { k6: K6RunnersReport };
  startedAt: string;
  finishedAt: string;
  /** Things a reader should know (request names the scenario does not have, …), one sentence each. */
  warnings: string[];
}

const iso = (ms: number): string => new Date(ms).toISOString();

export async function mergeK6Runners(input: MergeInput): Promise<MergeOutcome> {
  if (input.files.length === 0) throw new ConfigError([{ path: '', message: 'no k6 results files given' }]);
  const { thresholds, problems } = parseThresholds(input.scenario.thresholds ?? {});
  if (problems.length) throw new ConfigError(problems.map((p) => ({ path: `thresholds.${p.at.join('.')}`, message: p.message })));
  const runners: Array<{ file: string; samples: RunnerSamples; read: Awaited<ReturnType<typeof readSamples>> }> = [];
  // One file at a time: memory holds one file's chunk plus the recorders, whatever the number of runners.
  for (const file of input.files) {
    const samples = new RunnerSamples();
    const read = await readSamples(file, samples, { ...(input.progress ? { progress: input.progress } : {}), ...(input.progressEveryMs !== undefined ? { progressEveryMs: input.progressEveryMs } : {}) });
    if (samples.t0 === undefined) throw new ConfigError([{ file, path: '', message: 'no http_req_duration or dropped_iterations sample: not the output of an HTTP test (or the runner sent nothing)' }]);
    if (samples.instanceIds.size > 1) throw new ConfigError([{ file, path: '', message: `samples of ${samples.instanceIds.size} runners (instance_id ${[...samples.instanceIds].join(', ')}) in one file: give one file per runner` }]);
    runners.push({ file, samples, read });
  }
  const seen = new Map<string, string>();
  for (const { file, samples } of runners) {
    const [id] = [...samples.instanceIds];
    if (id === undefined) continue;
    const other = seen.get(id);
    // The same runner twice would count its requests twice: two runs' files in one folder, most likely.
    if (other) throw new ConfigError([{ file, path: '', message: `runner instance_id ${id} is also in ${other}: the same runner twice (files of two test runs?)` }]);
    seen.set(id, file);
  }
  const unionT0 = Math.min(...runners.map((r) => r.samples.t0 as number));
  const first = Math.min(...runners.map((r) => r.samples.first));
  const last = Math.max(...runners.map((r) => r.samples.last));
  const union = mergeSnapshots(runners.flatMap((r) => r.samples.snapshots(unionT0)), { rateLimitedAsFailure: true });
  // k6 samples carry no test start: the union lasted from its first sample to its last (rps, counter rates).
  union.elapsedMs = Math.max(1, last - first);
  const unionThresholds = evaluateThresholds(thresholds, union);

  const breakdown: K6RunnerReport[] = runners.map(({ file, samples, read }) => {
    const recorder = mergeSnapshots(samples.snapshots(samples.t0 as number), { rateLimitedAsFailure: true });
    recorder.elapsedMs = Math.max(1, samples.last - samples.first);
    const counts = recorder.counts();
    const [instanceId] = [...samples.instanceIds];
    return {
      runner: instanceId !== undefined ? `instance ${instanceId}` : basename(file),
      ...(instanceId !== undefined ? { instanceId } : {}),
      file,
      format: read.format,
      gzip: read.gzip,
      requests: counts.requests,
      failed: counts.failed,
      rateLimited: counts.rateLimited,
      dropped: recorder.dropped,
      statusCodes: counts.statusCodes,
      latency: summarizeLatency(recorder.histogram()),
      firstSampleAt: iso(samples.first),
      lastSampleAt: iso(samples.last),
      thresholds: evaluateThresholds(thresholds, recorder),
    };
  });
  const warnings: string[] = [];
  const expectedNames = new Set(input.scenario.requests.map((r) => r.name));
  const unknown = union.names.filter((n) => !expectedNames.has(n));
  if (unknown.length) warnings.push(`request names the scenario "${input.scenario.name}" does not have: ${unknown.join(', ')} (was the script exported from another scenario?)`);
  const description = `${runners.length} k6 runner${runners.length === 1 ? '' : 's'} merged from their samples`;
  const result = buildScenarioResult(input.scenario, union, unionThresholds as ThresholdResult[], description);
  const k6: K6RunnersReport = {
    runners: breakdown,
    precision: PERCENTILE_PRECISION,
    elapsed: 'from the earliest sample to the latest, over all runners (k6 samples carry no test start; the timeline starts at the whole second of the earliest sample)',
  };
  return { result: { ...result, k6 }, startedAt: iso(first), finishedAt: iso(last), warnings };
}
