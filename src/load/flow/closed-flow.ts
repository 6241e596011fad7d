/**
 * Flow scenarios on the VU executors (constant-vus, ramping-vus, per-vu-iterations): each VU loops
 * iterations back to back on an undici Pool with one connection per VU, as k6's VUs loop the default function.
 * The closed model of request mixes (engine/closed-model.ts) sends on the h1 sender, which drops bodies; a flow's
 * steps read them for their captures, so flows get this loop, on undici, instead.
 * A closed model has no intended send times: each request's latency is from its own start. ramping-vus runs
 * as the same one-second steps as the mix engine; a VU finishes the iteration it is in when its step ends
 * (k6's gracefulRampDown), bounded by gracefulStop.
 */
import { durationMs } from '../executors/common.ts';
import { getExecutor } from '../executors/registry.ts';
import type { ClosedExecutor } from '../executors/types.ts';
import { vuSteps } from '../engine/closed-model.ts';
import { flowPool } from '../engine/flow-pool.ts';
import { startGeneratorProbe } from '../engine/generator-probe.ts';
import { share } from '../engine/segments.ts';
import type { EngineInput, EngineOutcome } from '../engine/types.ts';
import { hrClock } from '../pacer/clock.ts';
import type { FlowRunner } from './flow-runner.ts';

export async function runClosedFlow(input: EngineInput, runner: FlowRunner): Promise<EngineOutcome> {
  const { scenario, recorder, signal } = input;
  const executor = getExecutor(scenario.executor) as ClosedExecutor;
  const clock = input.clock ?? hrClock;
  const origin = new URL(input.baseUrl);
  const timeoutMs = durationMs(scenario.timeout, 10_000);
  const grace = durationMs(scenario.gracefulStop, 10_000);
  const iterations = executor.iterationsPerVu?.(scenario);
  const slice = input.slice ?? { index: 0, count: 1 };
  // This worker's VUs in every step (divided, never multiplied), as the mix engine does.
  const steps = vuSteps(executor.vuSegments(scenario)).map((s) => ({ ...s, vus: share(s.vus, slice) }));
  const maxVus = Math.max(1, ...steps.map((s) => s.vus));
  const pool = await flowPool(origin.origin, maxVus);
  const notes: string[] = [];
  const warmUp = { durationMs: 0, requests: 0, errors: 0, connections: 0, skipped: "flow on a VU executor: the VUs' first iterations open the connections" };
  // Workers wait for a common t0 (`ready`); in the main thread the run starts now.
  const startAt = input.ready ? await input.ready(warmUp) : undefined;
  if (startAt !== undefined && startAt > clock.now()) await sleep(startAt - clock.now(), signal);
  const t0 = startAt ?? clock.now();
  input.onStart?.(t0);
  const probe = startGeneratorProbe(recorder, clock, t0);
  const one = (): Promise<void> => new Promise((resolve) => runner.iterate(pool, recorder, t0, clock.now() - t0, timeoutMs, () => resolve(), signal));
  try {
    if (iterations !== undefined) {
      // per-vu-iterations: each VU its iterations, the whole bounded by maxDuration.
      const end = t0 + (steps[0]?.durationMs ?? 0);
      const vu = async (): Promise<void> => {
        for (let i = 0; i < iterations && !signal.aborted && clock.now() < end; i++) await one();
      };
      await bounded(Promise.all(Array.from({ length: steps[0]?.vus ?? 1 }, vu)), end - clock.now() + grace, notes, 'maxDuration');
    } else {
      for (const step of steps) {
        if (signal.aborted) break;
        const end = clock.now() + step.durationMs;
        const vu = async (): Promise<void> => {
          while (!signal.aborted && clock.now() < end) await one();
        };
        if (step.vus <= 0) await sleep(step.durationMs, signal);
        else await bounded(Promise.all(Array.from({ length: step.vus }, vu)), step.durationMs + grace, notes, 'its stage');
      }
    }
  } finally {
    probe.stop();
    await pool.destroy();
  }
  return { elapsedMs: clock.now() - t0, notes, warmUp };
}

async function bounded(work: Promise<unknown>, ms: number, notes: string[], what: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const ended = await Promise.race([work.then(() => true), new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), Math.max(0, ms))))]);
  clearTimeout(timer);
  if (!ended) notes.push(`iterations still running gracefulStop after ${what} ended were cut off; their requests in flight are not counted`);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });
}
