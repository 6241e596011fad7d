/**
 * Closed-model executors (constant-vus, ramping-vus, per-vu-iterations) on the same HTTP/1.1 sender as the open
 * model (h1/sender.ts): one keep-alive connection per VU, each VU sending its next request when the previous one
 * is answered. Latency is each request's own time, from its write to its last byte; no coordinated-omission
 * correction applies, because a closed model has no intended send times — that is what the open-model executors
 * are for. Its own loop rather than autocannon's: less CPU per request, timeouts to the millisecond (autocannon's
 * are whole seconds), and each failure recorded under its request's name.
 *
 * ramping-vus is run as steps of at most one second, each with the VU count of the ramp at the step's middle; the
 * VUs run on across steps, and one that a step no longer wants finishes the request it is in (k6's
 * gracefulRampDown). per-vu-iterations gives each VU its iterations, the whole bounded by maxDuration. At the end,
 * requests in flight get gracefulStop to finish. With several workers each runs its share of every step's VUs.
 */
import { durationMs } from '../executors/common.ts';
import { getExecutor } from '../executors/registry.ts';
import type { ClosedExecutor, Segment } from '../executors/types.ts';
import { hrClock, type Clock } from '../pacer/clock.ts';
import type { RequestMix } from '../request-mix.ts';
import type { WarmUp } from '../result.ts';
import { startGeneratorProbe } from './generator-probe.ts';
import { requestEncoder } from './h1/request-bytes.ts';
import { H1Sender } from './h1/sender.ts';
import { ABORTED, errorCode } from './send-errors.ts';
import { share } from './segments.ts';
import { unsentWarmUp, warmUpPlan, type EngineInput, type EngineOutcome } from './types.ts';
import type { LoopPhase } from './loop-phase.ts';
import { warmUpClosed, warmUpTarget } from './warm-up.ts';

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

/**
 * VUs looping request → answer → next request on one sender. `want(n)` sets how many run: new ones start at once,
 * VUs past n finish the request they are in and stop. One object shape for the warm-up and the run, so the run's
 * first requests run code the warm-up has already optimised.
 */
export class VuLoops {
  /** Requests cut by a stop (not answers, not failures of the target). */
  cut = 0;
  #wanted = 0;
  #running = 0;
  readonly #active: boolean[] = [];
  #left: number[] | undefined;
  #idle: Array<() => void> = [];
  #phase: LoopPhase;
  readonly #encode: ReturnType<typeof requestEncoder>;

  constructor(
    readonly sender: H1Sender,
    private readonly mix: RequestMix,
    encode: ReturnType<typeof requestEncoder>,
    private readonly clock: Clock,
    phase: LoopPhase,
  ) {
    this.#encode = encode;
    this.#phase = phase;
  }

  set phase(phase: LoopPhase) {
    this.#phase = phase;
  }

  /** VUs with a request in progress or about to send one. */
  get running(): number {
    return this.#running;
  }

  /** Runs `n` VUs from now on; `iterations`: each VU sends that many requests, then stops. */
  want(n: number, iterations?: number): void {
    this.#wanted = n;
    if (iterations !== undefined) this.#left = Array.from({ length: n }, () => iterations);
    for (let i = 0; i < n; i++) {
      if (this.#active[i]) continue;
      this.#active[i] = true;
      this.#running++;
      this.#next(i);
    }
  }

  /** Resolves once no VU is running (after `want(0)`, or when every VU has spent its iterations). */
  idle(): Promise<void> {
    return this.#running === 0 ? Promise.resolve() : new Promise((resolve) => this.#idle.push(resolve));
  }

  #next(vu: number): void {
    const left = this.#left;
    if (vu >= this.#wanted || (left !== undefined && (left[vu] as number)-- <= 0)) {
      this.#active[vu] = false;
      if (--this.#running === 0) for (const resolve of this.#idle.splice(0)) resolve();
      return;
    }
    const phase = this.#phase;
    const request = this.mix.next();
    const sentAt = this.clock.now();
    let bytes: Buffer | string;
    try {
      bytes = this.#encode(request);
    } catch (err) {
      // A template that rendered a header or path no request can carry: this request's failure. The next one
      // waits for a turn of the loop, so a VU whose every request fails this way does not hold the thread.
      phase.recorder.recordError(request.nameIndex, errorCode(err), sentAt - phase.base, 0);
      phase.answered(true);
      setImmediate(() => this.#next(vu));
      return;
    }
    this.sender.send(bytes, request.method === 'HEAD', phase.timeoutMs, (outcome) => {
      const now = this.clock.now();
      // The sender was closed (a stop, or the end of the run): this VU is over.
      if (outcome.error === ABORTED) {
        this.cut++;
        this.#wanted = 0;
        return this.#next(vu);
      }
      if (outcome.status === 0) {
        // Every failure at its elapsed time: a latency threshold never passes on requests that did not complete.
        phase.recorder.recordError(request.nameIndex, outcome.error ?? 'unknown', now - phase.base, now - sentAt);
      } else {
        phase.recorder.record(request.nameIndex, outcome.status, request.expected(outcome.status), now - sentAt, now - phase.base);
      }
      phase.answered(outcome.status === 0);
      this.#next(vu);
    });
  }
}

export async function runClosedModel(input: EngineInput): Promise<EngineOutcome> {
  const { scenario, mix, recorder, templateState, signal } = input;
  const executor = getExecutor(scenario.executor) as ClosedExecutor;
  const clock = input.clock ?? hrClock;
  const slice = input.slice ?? { index: 0, count: 1 };
  const url = new URL(input.baseUrl);
  const prefix = url.pathname.replace(/\/+$/, '');
  const timeoutMs = durationMs(scenario.timeout, 10_000);
  const grace = durationMs(scenario.gracefulStop, 10_000);
  const iterations = executor.iterationsPerVu?.(scenario);
  // This worker's VUs in every step (k6 execution segments: divided, never multiplied).
  const steps = vuSteps(executor.vuSegments(scenario)).map((s) => ({ ...s, vus: share(s.vus, slice) }));
  const maxVus = Math.max(0, ...steps.map((s) => s.vus));
  const sender = new H1Sender({ origin: url.origin, connections: Math.max(1, maxVus) });
  const stop = (): void => sender.abortAll();
  signal.addEventListener('abort', stop, { once: true });
  if (signal.aborted) stop();
  const notes: string[] = [];
  const run: LoopPhase = { recorder, base: 0, timeoutMs, answered: () => {} };
  const loops = new VuLoops(sender, mix, requestEncoder(prefix, sender.host, templateState), clock, run);
  try {
    const plan = warmUpPlan(scenario);
    let warmUp: WarmUp | undefined;
    if (scenario.warmUp !== false) {
      const planned = iterations !== undefined ? maxVus * iterations : undefined;
      warmUp = plan.send && maxVus > 0 && !signal.aborted
        ? await warmUpClosed(loops, { connections: maxVus, requests: warmUpTarget(maxVus, planned), plannedMs: executor.plannedDurationMs(scenario), timeoutMs, names: recorder.names }, clock)
        : unsentWarmUp(plan);
    }
    const startAt = input.ready ? await input.ready(warmUp) : undefined;
    if (startAt !== undefined && startAt > clock.now()) await sleep(startAt - clock.now(), signal);
    const t0 = startAt ?? clock.now();
    input.onStart?.(t0);
    loops.cut = 0;
    run.base = t0;
    loops.phase = run;
    const probe = startGeneratorProbe(recorder, clock, t0);
    try {
      let end = t0;
      for (const step of steps) {
        if (signal.aborted) break;
        end += step.durationMs;
        loops.want(step.vus, iterations);
        // per-vu-iterations has one step, maxDuration long: it ends when every VU has spent its iterations.
        await Promise.race([sleep(end - clock.now(), signal), ...(iterations !== undefined ? [loops.idle()] : [])]);
      }
      loops.want(0);
      const drained = signal.aborted || (await Promise.race([loops.idle().then(() => true), sleep(grace, signal).then(() => false)]));
      if (!drained) notes.push(`${loops.running} requests were still in flight after gracefulStop (${scenario.gracefulStop ?? '10s'}); they are not counted`);
      sender.close();
      if (loops.cut > 0 && signal.aborted) notes.push(`${loops.cut} requests in flight were cut when the run was stopped; they are not counted`);
    } finally {
      probe.stop();
    }
    return { elapsedMs: clock.now() - t0, notes, ...(warmUp ? { warmUp } : {}) };
  } finally {
    signal.removeEventListener('abort', stop);
    sender.close();
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
