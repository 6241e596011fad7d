/**
 * One scenario, start to finish, against a base URL: compile the request mix, run the executor's engine
 * (closed: VU loops; open: the pacer; both on the h1 sender), watch abortOnFail thresholds and feed progress once a second,
 * then evaluate every threshold and build the ScenarioResult.
 */
import type { ApiConfig, CredentialsConfig, DeepReadonly } from '../config/types.ts';
import { bearersFor } from './bearers.ts';
import { runClosedModel } from './engine/closed-model.ts';
import { runOpenModel } from './engine/open-model.ts';
import type { EngineInput, EngineOutcome } from './engine/types.ts';
import { getExecutor } from './executors/registry.ts';
import { percentileMs } from './metrics/histogram.ts';
import { Recorder } from './metrics/recorder.ts';
import { buildScenarioResult } from './metrics/summarize.ts';
import { hrClock, type Clock, type Scheduler } from './pacer/clock.ts';
import { silentProgress, type ProgressSink } from './progress.ts';
import { seededRandom, type Random } from './random.ts';
import { createRequestMix, type RequestMix } from './request-mix.ts';
import { runClosedFlow } from './flow/closed-flow.ts';
import type { FlowRunner } from './flow/flow-runner.ts';
import { createFlowRunner, withFlowWarmUpRequests } from './flow/iteration.ts';
import { flowMix, prepareFlow } from './flow/prepare.ts';
import type { FlowState } from './flow/template.ts';
import { PrometheusRemoteWrite, type MetricsOutSpec } from './metrics-out/prometheus-rw.ts';
import { rateLimitExpectation, rateLimitThreshold } from './rate-limit-expectation.ts';
import type { RateLimitExpectation, ScenarioResult, ThresholdResult } from './result.ts';
import type { Scenario } from './scenario/types.ts';
import { newTemplateState } from './template.ts';
import { workerCount, type WorkersSetting } from './workers/count.ts';
import { runInWorkers } from './workers/pool.ts';
import { abortingThreshold, evaluateThresholds } from './thresholds/evaluate.ts';
import { parseThresholds } from './thresholds/parse.ts';

export interface RunScenarioOptions {
  scenario: Scenario;
  baseUrl: string;
  api: DeepReadonly<ApiConfig>;
  credentials: Readonly<CredentialsConfig>;
  signal?: AbortSignal;
  progress?: ProgressSink;
  clock?: Clock;
  scheduler?: Scheduler;
  random?: Random;
  /** How often abortOnFail thresholds are checked and progress is fed. @default 1000 */
  monitorEveryMs?: number;
  /** Worker threads (`--workers`); wins over the scenario's `workers`. @default the scenario's, else `auto` (workers/count.ts) */
  workers?: WorkersSetting;
  /** Seed of the template randomness ({{phone}}, {{uuid}} …). @default from the clock and pid */
  seed?: number;
  /** Push live metrics there once a second (--metrics-out); what could not be sent is in result.metricsOutput. */
  metricsOut?: MetricsOutSpec;
}

export { bearerFor, bearersFor } from './bearers.ts';

export interface ScenarioOutcome {
  result: ScenarioResult;
  recorder: Recorder;
  notes: string[];
  /** The abortOnFail threshold that stopped the scenario, if one did. */
  abortedBy?: ThresholdResult;
}

export async function runScenario(options: RunScenarioOptions): Promise<ScenarioOutcome> {
  const { scenario } = options;
  const executor = getExecutor(scenario.executor);
  const clock = options.clock ?? hrClock;
  const bearers = bearersFor(scenario, options.credentials);
  // A flow's steps are compiled by the flow (they hold {{variables}}); its mix only names them for the recorder.
  const flow = scenario.flow ? prepareFlow(scenario.flow, { api: options.api, credentials: options.credentials, ...(bearers[0] !== undefined ? { bearer: bearers[0] } : {}) }) : undefined;
  const mix: RequestMix = flow ? flowMix(flow) : createRequestMix(scenario, { api: options.api, credentials: options.credentials, bearers });
  let recorder = new Recorder(mix.names, { rateLimitedAsFailure: scenario.rateLimitedAsFailure });
  const { thresholds } = parseThresholds(scenario.thresholds);
  const progress = options.progress ?? silentProgress;
  const plannedMs = executor.plannedDurationMs(scenario);
  const { workers, note: workersNote } = workerCount(scenario, options.workers);
  const stop = new AbortController();
  const onOuterAbort = (): void => stop.abort();
  options.signal?.addEventListener('abort', onOuterAbort, { once: true });

  // Pushes never block: a slow endpoint costs queued batches (counted), not load (metrics-out/prometheus-rw.ts).
  const pusher = options.metricsOut ? new PrometheusRemoteWrite(options.metricsOut, scenario.name) : undefined;
  let t0: number | undefined;
  let abortedBy: ThresholdResult | undefined;
  // What the monitor reads: the live recorder in-process, the merge of the workers' live snapshots otherwise.
  let live: () => Recorder = () => recorder;
  const monitor = (): void => {
    if (t0 === undefined) return;
    const elapsed = clock.now() - t0;
    if (elapsed < 0) return;
    const source = live();
    source.elapsedMs = elapsed;
    abortedBy ??= abortingThreshold(thresholds, source, elapsed);
    if (abortedBy && !stop.signal.aborted) stop.abort();
    pusher?.tick(source);
    const last = source.timeline[Math.floor(elapsed / 1000) - 1];
    const counts = source.counts();
    progress.update({
      elapsedMs: elapsed,
      plannedMs,
      requests: counts.requests,
      rps: last?.requests ?? 0,
      p99: last ? percentileMs(last.histogram, 99) : 0,
      failed: counts.failed,
      rateLimited: counts.rateLimited,
      dropped: source.dropped,
    });
  };
  const timer = setInterval(monitor, options.monitorEveryMs ?? 1000);
  progress.start(scenario.name, plannedMs);
  const seed = options.seed ?? (Date.now() ^ (process.pid << 8)) >>> 0;
  let outcome: EngineOutcome;
  try {
    if (workers > 1) {
      const run = runInWorkers({
        scenario,
        baseUrl: options.baseUrl,
        api: options.api,
        credentials: options.credentials,
        workers,
        names: mix.names,
        signal: stop.signal,
        seed,
        clock,
        onStart: (start) => (t0 = start),
      });
      live = run.live;
      const merged = await run.finished;
      recorder = merged.recorder;
      outcome = { elapsedMs: merged.elapsedMs, notes: merged.notes, ...(merged.warmUp ? { warmUp: merged.warmUp } : {}) };
    } else {
      const templateState = newTemplateState(options.random ?? seededRandom(seed));
      let runner: FlowRunner | undefined;
      if (flow) {
        const state: FlowState = Object.assign(templateState, { vars: {} });
        runner = createFlowRunner(flow, new URL(options.baseUrl).pathname.replace(/\/+$/, ''), state, clock);
      }
      const input: EngineInput = {
        scenario,
        baseUrl: options.baseUrl,
        mix,
        recorder,
        templateState,
        ...(runner && executor.model === 'open' ? { flow: runner } : {}),
        signal: stop.signal,
        clock,
        ...(options.scheduler ? { scheduler: options.scheduler } : {}),
        onStart: (start) => (t0 = start),
      };
      outcome = executor.model === 'open' ? await runOpenModel(input) : runner ? await runClosedFlow(input, runner) : await runClosedModel(input);
      if (runner) outcome = withFlowWarmUpRequests(outcome, runner, recorder);
    }
  } finally {
    clearInterval(timer);
    progress.stop();
    options.signal?.removeEventListener('abort', onOuterAbort);
  }
  recorder.elapsedMs = outcome.elapsedMs;
  const results = evaluateThresholds(thresholds, recorder);
  // A threshold that stopped the run stays crossed, as in k6, even if the numbers recovered by the end.
  const stopper = abortedBy && results.find((r) => r.metric === abortedBy?.metric && r.expr === abortedBy.expr);
  if (stopper) stopper.ok = false;
  let expectation: RateLimitExpectation | undefined;
  if (scenario.rateLimit && executor.model === 'open') {
    const segments = executor.rateSegments(scenario);
    const ms = segments.reduce((sum, s) => sum + s.durationMs, 0);
    const offeredRps = ms > 0 ? segments.reduce((sum, s) => sum + ((s.from + s.to) / 2) * s.durationMs, 0) / ms : 0;
    expectation = rateLimitExpectation(scenario.rateLimit, mix.credentialCount, offeredRps, recorder.counts());
    if (!expectation.ok) results.push(rateLimitThreshold(expectation));
  }
  const notes = [...(workersNote ? [workersNote] : []), ...outcome.notes];
  if (abortedBy) notes.push(`stopped early: threshold ${abortedBy.metric} '${abortedBy.expr}' crossed (abortOnFail; actual ${abortedBy.actual})`);
  else if (options.signal?.aborted) notes.push('stopped early: interrupted');
  const result = buildScenarioResult(scenario, recorder, results, executor.describe(scenario), expectation, { workers, ...(outcome.warmUp ? { warmUp: outcome.warmUp } : {}) });
  if (pusher) {
    // The last push holds the final numbers, the same ones report.json holds.
    result.metricsOutput = await pusher.finish(recorder);
    if (result.metricsOutput.samplesNotSent > 0) notes.push(`metrics output: ${result.metricsOutput.samplesNotSent} samples could not be sent to ${result.metricsOutput.url}${result.metricsOutput.lastError ? ` (last error: ${result.metricsOutput.lastError})` : ''}; the report is complete`);
  }
  return { result, recorder, notes, ...(abortedBy ? { abortedBy } : {}) };
}
