/**
 * Closed-model executors (constant-vus, ramping-vus, per-vu-iterations) on autocannon's programmatic API: one
 * connection per VU, each sending its next request when the previous one is answered. Latency is autocannon's
 * own per-response time (write → last byte); no coordinated-omission correction applies, because a closed
 * model has no intended send times — that is what the open-model executors are for.
 *
 * Per-name metrics: autocannon cycles each connection through its `requests` list, so the weighted mix is laid
 * out as one smooth-weighted-round-robin cycle; each entry's `onResponse` notes its name, and autocannon emits
 * the connection's `response` event (with the time) synchronously right after it.
 * ramping-vus is run as steps of at most one second, each with the VU count of the ramp at the step's middle.
 */
import autocannon from 'autocannon';
import { durationMs } from '../executors/common.ts';
import { getExecutor } from '../executors/registry.ts';
import type { ClosedExecutor, Segment } from '../executors/types.ts';
import { hrClock } from '../pacer/clock.ts';
import { weightedRoundRobin, type PreparedRequest } from '../request-mix.ts';
import type { TemplateState } from '../template.ts';
import type { EngineInput, EngineOutcome } from './types.ts';

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

function autocannonRequests(cycle: readonly PreparedRequest[], prefix: string, state: TemplateState, onName: (request: PreparedRequest) => void): AutocannonRequest[] {
  return cycle.map((r) => {
    const dynamic = !r.path.constant || (r.body !== undefined && !r.body.constant);
    const base = {
      method: r.method as autocannon.Request['method'],
      path: prefix + r.path.render(state),
      headers: r.headers,
      ...(r.body ? { body: r.body.render(state) } : {}),
      onResponse: () => onName(r),
    };
    if (!dynamic) return base;
    return {
      ...base,
      setupRequest: (req: autocannon.Request) => ({ ...req, path: prefix + r.path.render(state), ...(r.body ? { body: r.body.render(state) } : {}) }),
    };
  });
}

export async function runClosedModel(input: EngineInput): Promise<EngineOutcome> {
  const { scenario, mix, recorder, templateState, signal } = input;
  const executor = getExecutor(scenario.executor) as ClosedExecutor;
  const clock = input.clock ?? hrClock;
  const url = new URL(input.baseUrl);
  const prefix = url.pathname.replace(/\/+$/, '');
  let last = mix.requests[0] as PreparedRequest;
  const cycle = mixCycle(mix.requests, scenario.requests.map((r) => r.weight));
  // Several credentials: one cycle of the mix per credential, each request taking the next credential in turn.
  const rotated = mix.credentialCount > 1 ? Array.from({ length: cycle.length * mix.credentialCount }, () => mix.next()) : cycle;
  const requests = autocannonRequests(rotated, prefix, templateState, (r) => (last = r));
  const t0 = clock.now();
  input.onStart?.(t0);
  const timeoutS = Math.max(1, Math.ceil(durationMs(scenario.timeout, 10_000) / 1000));
  const iterations = executor.iterationsPerVu?.(scenario);

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
      instance.on('response', (_client, statusCode, _bytes, responseTime) => {
        const at = clock.now() - t0;
        recorder.record(last.nameIndex, statusCode, last.expected(statusCode), responseTime, at);
      });
      instance.on('reqError', (err) => recorder.recordError(recorder.unattributed, err.message.includes('timed out') ? 'timeout' : ((err as { code?: string }).code ?? 'error'), clock.now() - t0));
      const stop = (): void => instance.stop();
      signal.addEventListener('abort', stop, { once: true });
      // per-vu-iterations: maxDuration caps the run (autocannon ignores duration when amount is set).
      if (iterations !== undefined) setTimeout(stop, step.durationMs).unref();
    });

  for (const step of vuSteps(executor.vuSegments(scenario))) {
    if (signal.aborted) break;
    await runStep(step);
  }
  return { elapsedMs: clock.now() - t0, notes: [] };
}
