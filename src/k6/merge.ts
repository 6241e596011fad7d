/**
 * N k6 runners' samples → ONE scenario result, judged once. k6-operator (and any set of k6 processes on execution
 * segments) leaves each runner judging its thresholds on its own slice; a p99 every runner passes can fail on the
 * union, and the other way round. Here every runner's file is read in one streaming pass into the harness's own
 * recorders (HDR histograms per request name and per second, src/load/metrics/), the runners are merged by adding
 * histograms and counts — exact, as merging histograms is — and the scenario's thresholds are evaluated on the
 * union by the harness's k6-threshold evaluator (src/load/thresholds/), the same code `harness load` uses. Each
 * sample is recorded into its runner's recorder and into the union's, which is the exact merge without a merge step.
 *
 * Percentiles come from the histograms (3 significant digits): a merged pX is the value of the sample of rank
 * max(1, ceil(X/100 × n)) among all n samples, to within 0.1 % + 1 µs above it and 1 µs below (k6's value rounded to the whole
 * µs). k6 itself interpolates between neighbouring samples; both are within that bound of the same order statistic.
 */
import { basename } from 'node:path';
import { ConfigError } from '../errors/harness-errors.ts';
import { createHistogram, recordMicros, summarizeLatency } from '../load/metrics/histogram.ts';
import { Recorder } from '../load/metrics/recorder.ts';
import { buildScenarioResult } from '../load/metrics/summarize.ts';
import type { ScenarioResult, ThresholdResult } from '../load/result.ts';
import type { Scenario } from '../load/scenario/types.ts';
import { evaluateThresholds } from '../load/thresholds/evaluate.ts';
import { parseThresholds } from '../load/thresholds/parse.ts';
import type { K6RunnerReport, K6RunnersReport } from './runner-report.ts';
import { readSamples, SampleRejected, sniffFile, type IterationMetric, type ReadProgress, type RequestSample, type SampleSink } from './read-samples.ts';

/** The bound every merged percentile keeps (src/load/metrics/histogram.ts: 3 significant digits, whole µs). */
export const PERCENTILE_PRECISION: K6RunnersReport['precision'] = {
  relative: 0.001,
  absoluteMs: 0.001,
  rank: 'max(1, ceil(p/100 × n))',
  text: 'each percentile is the sample of rank max(1, ceil(p/100 × n)) (nearest rank) of all n samples together, to within 1 µs below and 0.1 % + 1 µs above: HDR histogram resolution, never an average of runners\' percentiles',
};

const MAX_SPAN_MS = 7 * 24 * 3600 * 1000;

/**
 * One runner's file, recorded twice as it is read: into the runner's own recorder (the breakdown) and into the
 * union's (the verdict). Both are live recorders of the scenario's request names, so nothing is encoded, decoded or
 * merged afterwards: the union's histograms hold every runner's samples, which is what merging them would give.
 * Times: the runner's clock starts at the whole second of its first sample, the union's at the earliest runner's.
 */
class RunnerSamples implements SampleSink {
  first = Infinity;
  last = -Infinity;
  readonly own: Recorder;
  readonly instanceIds = new Set<string>();
  /** The iteration metrics this runner's file carries samples of: a threshold on one it lacks is not evaluated. */
  readonly carried = new Set<IterationMetric>();
  readonly #index: Map<string, number>;

  constructor(
    names: readonly string[],
    readonly t0: number,
    readonly union: Recorder,
    readonly unionT0: number,
    readonly scenarioName: string,
  ) {
    // rateLimitedAsFailure: a 429 is failed exactly when k6 said so (expected_response false), as http_req_failed.
    this.own = new Recorder(names, { rateLimitedAsFailure: true });
    this.#index = new Map(names.map((n, i) => [n, i]));
  }

  #seen(timeMs: number, instanceId?: string): void {
    // A time far from the test's start would open a timeline of millions of seconds: refuse it, naming the line.
    if (timeMs - this.unionT0 > MAX_SPAN_MS) throw new SampleRejected(`sample time ${new Date(timeMs).toISOString()} is more than 7 days after the first sample of all runners: a corrupt line, or files of different tests`);
    if (timeMs < this.first) this.first = timeMs;
    if (timeMs > this.last) this.last = timeMs;
    if (instanceId !== undefined) this.instanceIds.add(instanceId);
  }

  request(s: RequestSample): void {
    this.#seen(s.timeMs, s.instanceId);
    const index = this.#index.get(s.name);
    if (index === undefined) throw new SampleRejected(`request name "${s.name}" is not in scenario "${this.scenarioName}" (${[...this.#index.keys()].join(', ')}): was the script exported from another scenario?`);
    // k6 records a duration for a request that got no answer too (status 0, error_code says why).
    if (s.status === 0) {
      const code = `k6 error ${s.errorCode ?? 'unknown'}`;
      this.own.recordError(index, code, s.timeMs - this.t0, s.durationMs);
      this.union.recordError(index, code, s.timeMs - this.unionT0, s.durationMs);
    } else {
      this.own.record(index, s.status, s.expected, s.durationMs, s.timeMs - this.t0);
      this.union.record(index, s.status, s.expected, s.durationMs, s.timeMs - this.unionT0);
    }
  }

  /** k6's own iteration samples, into the recorders' iterations (what thresholds on iteration metrics read). */
  iteration(metric: IterationMetric, timeMs: number, value: number, step?: string): void {
    this.#seen(timeMs);
    this.carried.add(metric);
    for (const recorder of [this.own, this.union]) {
      const it = (recorder.iterations ??= { count: 0, failed: 0, failedBy: new Map(), histogram: createHistogram() });
      if (metric === 'iteration_duration') recordMicros(it.histogram, value * 1000);
      else if (metric === 'iterations') it.count += value;
      else {
        it.failed += value;
        const by = step ?? 'unknown step';
        it.failedBy.set(by, (it.failedBy.get(by) ?? 0) + value);
      }
    }
  }

  dropped(timeMs: number, count: number, instanceId?: string): void {
    this.#seen(timeMs, instanceId);
    for (let i = 0; i < count; i++) {
      this.own.recordDropped(timeMs - this.t0);
      this.union.recordDropped(timeMs - this.unionT0);
    }
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
  const names = [...new Set(input.scenario.requests.map((r) => r.name))];
  const sniffs = await Promise.all(input.files.map((file) => sniffFile(file)));
  const second = (ms: number): number => Math.floor(ms / 1000) * 1000;
  sniffs.forEach((s, i) => {
    if (s.kind !== 'json' && s.kind !== 'csv') throw new ConfigError([{ file: input.files[i]!, line: 1, path: '', message: `not k6 --out json / --out csv output (first line: ${JSON.stringify(s.firstLine.slice(0, 80))})` }]);
    if (s.firstTimeMs === undefined) throw new ConfigError([{ file: input.files[i]!, path: '', message: 'no sample in the first 64 KiB: not the output of a k6 test that sent anything' }]);
  });
  const starts = sniffs.map((s) => second(s.firstTimeMs as number));
  const unionT0 = Math.min(...starts);
  const union = new Recorder(names, { rateLimitedAsFailure: true });
  // The files are read side by side: each holds a 1 MiB chunk at a time, so memory grows with the number of runners
  // and request names, not with the files' sizes, and gzip inflates on libuv's threads while this one reads lines.
  const runners = await Promise.all(
    input.files.map(async (file, i) => {
      const samples = new RunnerSamples(names, starts[i]!, union, unionT0, input.scenario.name);
      const read = await readSamples(file, samples, { ...(input.progress ? { progress: input.progress } : {}), ...(input.progressEveryMs !== undefined ? { progressEveryMs: input.progressEveryMs } : {}) });
      // Iteration samples alone (a k6 test that sent no HTTP request) are not a run of the scenario either.
      if (samples.own.counts().requests === 0 && samples.own.dropped === 0) throw new ConfigError([{ file, path: '', message: 'no http_req_duration or dropped_iterations sample: not the output of an HTTP test (or the runner sent nothing)' }]);
      if (samples.instanceIds.size > 1) throw new ConfigError([{ file, path: '', message: `samples of ${samples.instanceIds.size} runners (instance_id ${[...samples.instanceIds].join(', ')}) in one file: give one file per runner` }]);
      return { file, samples, read };
    }),
  );
  const seen = new Map<string, string>();
  for (const { file, samples } of runners) {
    const [id] = [...samples.instanceIds];
    if (id === undefined) continue;
    const other = seen.get(id);
    // The same runner twice would count its requests twice: two runs' files in one folder, most likely.
    if (other) throw new ConfigError([{ file, path: '', message: `runner instance_id ${id} is also in ${other}: the same runner twice (files of two test runs?)` }]);
    seen.set(id, file);
  }
  const first = Math.min(...runners.map((r) => r.samples.first));
  const last = Math.max(...runners.map((r) => r.samples.last));
  // k6 samples carry no test start: the union lasted from its first sample to its last (rps, counter rates).
  union.elapsedMs = Math.max(1, last - first);
  // A threshold on an iteration metric is judged on k6's own samples of it, never on the request histogram: where
  // a file has none (filtered output, a hand-made file), it is not evaluated.
  const lacking = (metric: string, of: readonly (typeof runners)[number][]): string | undefined => {
    if (metric !== 'iteration_duration' && metric !== 'iterations') return undefined;
    const without = of.filter((r) => !r.samples.carried.has(metric));
    if (without.length === 0) return undefined;
    return `k6 output carries no ${metric}${of.length > 1 ? ` (${without.map((r) => r.file).join(', ')})` : ''}`;
  };
  const unionThresholds = evaluateThresholds(thresholds, union, (t) => lacking(t.metric, runners));

  const breakdown: K6RunnerReport[] = runners.map(({ file, samples, read }) => {
    const recorder = samples.own;
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
      thresholds: evaluateThresholds(thresholds, recorder, (t) => lacking(t.metric, [{ file, samples, read }])),
    };
  });
  const warnings: string[] = [];
  // k6 declares each metric with the thresholds the script gave it (NDJSON only; sub-metric thresholds are not
  // declared): a difference from the scenario's means the script was edited or exported from another scenario.
  const wanted = new Map<string, string[]>();
  for (const [key, list] of Object.entries(input.scenario.thresholds ?? {})) wanted.set(key, list.map((t) => (typeof t === 'string' ? t : t.threshold).trim()));
  // Every runner ran the same script: the first file that declares anything speaks for all.
  for (const { file, read } of runners.filter((r) => Object.keys(r.read.declaredThresholds).length > 0).slice(0, 1)) {
    for (const [metric, declared] of Object.entries(read.declaredThresholds)) {
      const expected = wanted.get(metric) ?? [];
      if (declared.length === 0 && expected.length === 0) continue;
      if (declared.join('\u0000') !== expected.join('\u0000')) warnings.push(`${file}: the script gave ${metric} the thresholds [${declared.join(', ')}], scenario "${input.scenario.name}" has [${expected.join(', ')}]; judged: the scenario's`);
    }
  }
  const silent = names.filter((n) => union.counts(n).requests === 0);
  if (silent.length) warnings.push(`no request named ${silent.join(', ')} in any runner's samples, though scenario "${input.scenario.name}" has ${silent.length === 1 ? 'it' : 'them'}`);
  const description = `${runners.length} k6 runner${runners.length === 1 ? '' : 's'} merged from their samples`;
  const result = buildScenarioResult(input.scenario, union, unionThresholds as ThresholdResult[], description);
  const k6: K6RunnersReport = {
    runners: breakdown,
    precision: PERCENTILE_PRECISION,
    elapsed: 'from the earliest sample to the latest, over all runners (k6 samples carry no test start; the timeline starts at the whole second of the earliest sample)',
  };
  return { result: { ...result, k6 }, startedAt: iso(first), finishedAt: iso(last), warnings };
}
