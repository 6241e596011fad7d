/**
 * One scenario, start to finish, against a base URL: compile the request mix, run the executor's engine
 * (closed: autocannon; open: pacer + undici), watch abortOnFail thresholds and feed progress once a second,
 * then evaluate every threshold and build the ScenarioResult.
 */
import type { ApiConfig, CredentialsConfig, DeepReadonly } from '../config/types.ts';
import { ConfigError } from '../errors.ts';
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
import { createRequestMix } from './request-mix.ts';
import { rateLimitExpectation, rateLimitThreshold } from './rate-limit-expectation.ts';
import type { RateLimitExpectation, ScenarioResult, ThresholdResult } from './result.ts';
import type { Scenario } from './scenario/types.ts';
import { newTemplateState } from './template.ts';
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
}

export interface ScenarioOutcome {
  result: ScenarioResult;
  recorder: Recorder;
  notes: string[];
  /** The abortOnFail threshold that stopped the scenario, if one did. */
  abortedBy?: ThresholdResult;
}

export function bearerFor(scenario: Pick<Scenario, 'credential' | 'name'>, credentials: Readonly<CredentialsConfig>): string | undefined {
  if (scenario.credential === 'none') return undefined;
  const value = credentials[scenario.credential];
  if (!value) {
    throw new ConfigError([{ path: `credentials.${scenario.credential}`, message: `scenario "${scenario.name}" sends credential ${scenario.credential}, but it is not set for this target (see harness.config.yaml; or set "credential:" in the scenario)` }]);
  }
  return value;
}

/** The bearers a scenario rotates across: one per `credentials` entry, else `credential`'s (none: []). */
export function bearersFor(scenario: Pick<Scenario, 'credential' | 'credentials' | 'name'>, credentials: Readonly<CredentialsConfig>): string[] {
  return (scenario.credentials ?? [scenario.credential]).flatMap((credential) => {
    const bearer = bearerFor({ credential, name: scenario.name }, credentials);
    return bearer === undefined ? [] : [bearer];
  });
}

export async function runScenario(options: RunScenarioOptions): Promise<ScenarioOutcome> {
  const { scenario } = options;
  const executor = getExecutor(scenario.executor);
  const clock = options.clock ?? hrClock;
  const bearers = bearersFor(scenario, options.credentials);
  const mix = createRequestMix(scenario, { api: options.api, credentials: options.credentials, bearers });
  const recorder = new Recorder(mix.names, { rateLimitedAsFailure: scenario.rateLimitedAsFailure });
  const { thresholds } = parseThresholds(scenario.thresholds);
  const progress = options.progress ?? silentProgress;
  const plannedMs = executor.plannedDurationMs(scenario);
  const stop = new AbortController();
  const onOuterAbort = (): void => stop.abort();
  options.signal?.addEventListener('abort', onOuterAbort, { once: true });

  let t0: number | undefined;
  let abortedBy: ThresholdResult | undefined;
  const monitor = (): void => {
    if (t0 === undefined) return;
    const elapsed = clock.now() - t0;
    recorder.elapsedMs = elapsed;
    abortedBy ??= abortingThreshold(thresholds, recorder, elapsed);
    if (abortedBy && !stop.signal.aborted) stop.abort();
    const last = recorder.timeline[Math.floor(elapsed / 1000) - 1];
    const counts = recorder.counts();
    progress.update({
      elapsedMs: elapsed,
      plannedMs,
      requests: counts.requests,
      rps: last?.requests ?? 0,
      p99: last ? percentileMs(last.histogram, 99) : 0,
      failed: counts.failed,
      rateLimited: counts.rateLimited,
      dropped: recorder.dropped,
    });
  };
  const timer = setInterval(monitor, options.monitorEveryMs ?? 1000);
  progress.start(scenario.name, plannedMs);
  const input: EngineInput = {
    scenario,
    baseUrl: options.baseUrl,
    mix,
    recorder,
    templateState: newTemplateState(options.random ?? seededRandom()),
    signal: stop.signal,
    clock,
    ...(options.scheduler ? { scheduler: options.scheduler } : {}),
    onStart: (start) => (t0 = start),
  };
  let outcome: EngineOutcome;
  try {
    outcome = executor.model === 'open' ? await runOpenModel(input) : await runClosedModel(input);
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
  const notes = [...outcome.notes];
  if (abortedBy) notes.push(`stopped early: threshold ${abortedBy.metric} '${abortedBy.expr}' crossed (abortOnFail; actual ${abortedBy.actual})`);
  else if (options.signal?.aborted) notes.push('stopped early: interrupted');
  const result = buildScenarioResult(scenario, recorder, results, executor.describe(scenario), expectation);
  return { result, recorder, notes, ...(abortedBy ? { abortedBy } : {}) };
}
