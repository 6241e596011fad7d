/**
 * Closed-model executors (constant-vus, ramping-vus, per-vu-iterations) on autocannon's programmatic API: one
 * connection per VU, each sending its next request when the previous one is answered. Latency is autocannon's
 * own per-response time (write → last byte); no coordinated-omission correction applies, because a closed
 * model has no intended send times — that is what the open-model executors are for.
 *
 * Per-name metrics: autocannon cycles each connection through its `requests` list, so the weighted mix is laid
 * out as one smooth-weighted-round-robin cycle, each entry carrying its position in the cycle. With pipelining 1
 * the connection's current request is the one just answered when autocannon emits `response` (it moves to the
 * next one after the listeners ran), so the listener reads the name from there. No `onResponse`: with one,
 * autocannon keeps every response body and rebuilds its headers as an object for each answer (about 4 % of a
 * core at 90k req/s).
 * ramping-vus is run as steps of at most one second, each with the VU count of the ramp at the step's middle.
 * With several workers each runs its share of every step's VUs. A timeout (autocannon's, in whole seconds) is
 * recorded in latency at the timeout, under no request name (autocannon does not say which request it was).
 */
import autocannon from 'autocannon';
import { durationMs } from '../executors/common.ts';
import { getExecutor } from '../executors/registry.ts';
import { Recorder } from '../metrics/recorder.ts';
import type { ClosedExecutor, Segment } from '../executors/types.ts';
import { hrClock } from '../pacer/clock.ts';
import { weightedRoundRobin, type PreparedRequest } from '../request-mix.ts';
import type { WarmUp } from '../result.ts';
import type { TemplateState } from '../template.ts';
import { startGeneratorProbe } from './generator-probe.ts';
import { share } from './segments.ts';
import { isTimeout, unsentWarmUp, warmUpPlan, type EngineInput, type EngineOutcome } from './types.ts';
import { warmUpAutocannon, warmUpTarget } from './warm-up.ts';

interface Step {
  vus: number;
  durationMs: number;
}

/** The VU profile as steps of at most `stepMs`. */
export function vuSteps(segments: readonly Segment[], stepMs = 1000): Step[] {
  const steps: Step[] = [];
  for (const s of segments) {
    const count = Math.max(1, Math.ceil(s.durationMs / stepMs));
    const each = s.durationMs / count;
    for (let i = 0; i < count; i++) {
      const vus = Math.round(s.from + ((s.to - s.from) * (i + 0.5)) / count);
      const last = steps[steps.length - 1];
      if (last && last.vus === vus) last.durationMs += each;
      else steps.push({ vus, durationMs: each });
    }
  }
  return steps;
}

/** One cycle of the weighted mix (at most 1000 entries). */
export function mixCycle(requests: readonly PreparedRequest[], weights: readonly number[]): PreparedRequest[] {
  const integral = weights.every((w) => Number.isInteger(w));
  const length = Math.min(1000, integral ? weights.reduce((a, b) => a + b, 0) : 100);
  const next = weightedRoundRobin(requests, weights);
  return Array.from({ length }, next);
}

type AutocannonRequest = NonNullable<autocannon.Options['requests']>[number];

/** The property on each autocannon request that says which entry of the cycle it is (autocannon copies it with the request). */
const CYCLE_INDEX = 'harnessCycleIndex';

function autocannonRequests(cycle: readonly PreparedRequest[], prefix: string, state: TemplateState): AutocannonRequest[] {
  return cycle.map((r, index) => {
    const dynamic = !r.path.constant || (r.body !== undefined && !r.body.constant);
    const base = {
      method: r.method as autocannon.Request['method'],
      path: prefix + r.path.render(state),
      headers: r.headers,
      ...(r.body ? { body: r.body.render(state) } : {}),
      [CYCLE_INDEX]: index,
    };
    if (!dynamic) return base;
    return {
      ...base,
      setupRequest: (req: autocannon.Request) => ({ ...req, path: prefix + r.path.render(state), ...(r.body ? { body: r.body.render(state) } : {}) }),
    };
  });
}

/** The cycle entry a connection's answer belongs to (autocannon's client, not in its typings: requestIterator.currentRequest). */
function answered(client: unknown, cycle: readonly PreparedRequest[]): PreparedRequest {
  const current = (client as { requestIterator?: { currentRequest?: Record<string, unknown> } }).requestIterator?.currentRequest;
  const index = current?.[CYCLE_INDEX];
  return cycle[typeof index === 'number' ? index : 0] as PreparedRequest;
}

export async function runClosedModel(input: EngineInput): Promise<EngineOutcome> {
  const { scenario, mix, recorder, templateState, signal } = input;
  const executor = getExecutor(scenario.executor) as ClosedExecutor;
  const clock = input.clock ?? hrClock;
  const slice = input.slice ?? { index: 0, count: 1 };
  const url = new URL(input.baseUrl);
  const prefix = url.pathname.replace(/\/+$/, '');
  const cycle = mixCycle(mix.requests, scenario.requests.map((r) => r.weight));
  // Several credentials: one cycle of the mix per credential, each request taking the next credential in turn.
  const rotated = mix.credentialCount > 1 ? Array.from({ length: cycle.length * mix.credentialCount }, () => mix.next()) : cycle;
  const requests = autocannonRequests(rotated, prefix, templateState);
  const timeoutS = Math.max(1, Math.ceil(durationMs(scenario.timeout, 10_000) / 1000));
  const iterations = executor.iterationsPerVu?.(scenario);
  // This worker's VUs in every step (k6 execution segments: divided, never multiplied).
  const steps = vuSteps(executor.vuSegments(scenario)).map((s) => ({ ...s, vus: share(s.vus, slice) }));
  const notes: string[] = [];

  // The run's recording, also given the warm-up's answers (into a scratch recorder) so it is optimised before t0.
  const recordAnswers = (instance: autocannon.Instance, into: Recorder, start: number): void => {
    instance.on('response', (client, statusCode, _bytes, responseTime) => {
      const request = answered(client, rotated);
      into.record(request.nameIndex, statusCode, request.expected(statusCode), responseTime, clock.now() - start);
    });
    instance.on('reqError', (err) => {
      const code = err.message.includes('timed out') ? 'timeout' : ((err as { code?: string }).code ?? 'error');
      // A timeout is recorded at its duration (autocannon's whole-second timeout): see Recorder.recordError.
      into.recordError(into.unattributed, code, clock.now() - start, isTimeout(code) ? timeoutS * 1000 : undefined);
    });
  };

  const plan = warmUpPlan(scenario);
  let warmUp: WarmUp | undefined;
  if (scenario.warmUp !== false) {
    const connections = Math.max(0, ...steps.map((s) => s.vus));
    const scratch = new Recorder(recorder.names);
    const warmStart = clock.now();
    const planned = iterations !== undefined ? connections * iterations : undefined;
    warmUp = plan.send && connections > 0
      ? await warmUpAutocannon({ url: url.origin, connections, pipelining: 1, timeout: timeoutS, requests }, { requests: warmUpTarget(connections, planned), plannedMs: executor.plannedDurationMs(scenario) }, clock, (instance) => recordAnswers(instance, scratch, warmStart), signal)
      : unsentWarmUp(plan);
  }
  const startAt = input.ready ? await input.ready(warmUp) : undefined;
  if (startAt !== undefined && startAt > clock.now()) await new Promise((resolve) => setTimeout(resolve, startAt - clock.now()));
  const t0 = startAt ?? clock.now();
  input.onStart?.(t0);
  const probe = startGeneratorProbe(recorder, clock, t0);

  const runStep = (step: Step): Promise<void> =>
    new Promise((resolve, reject) => {
      if (step.vus <= 0) {
        const timer = setTimeout(resolve, step.durationMs);
        signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
        return;
      }
      const instance = autocannon(
        {
          url: url.origin,
          connections: step.vus,
          pipelining: 1,
          timeout: timeoutS,
          requests,
          ...(iterations !== undefined ? { amount: step.vus * iterations } : { duration: step.durationMs / 1000 }),
        },
        (err) => (err ? reject(err) : resolve()),
      );
      recordAnswers(instance, recorder, t0);
      const stop = (): void => instance.stop();
      signal.addEventListener('abort', stop, { once: true });
      // per-vu-iterations: maxDuration caps the run (autocannon ignores duration when amount is set).
      if (iterations !== undefined) setTimeout(stop, step.durationMs).unref();
    });

  try {
    for (const step of steps) {
      if (signal.aborted) break;
      await runStep(step);
    }
  } finally {
    probe.stop();
  }
  return { elapsedMs: clock.now() - t0, notes, ...(warmUp ? { warmUp } : {}) };
}
