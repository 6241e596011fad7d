/**
 * Open-model executors (constant-arrival-rate, ramping-arrival-rate): the pacer starts arrivals on an undici
 * Pool with one connection per VU (maxVUs, no pipelining), so a busy slot is a busy connection. Latency is
 * measured from each arrival's intended time on the same monotonic clock; answers are bucketed into seconds
 * by completion time. Before t0 the preAllocatedVUs connections are opened and warmed through the same send
 * and record code as the run, into a scratch recorder (warm-up.ts); each start's lag and the event-loop delay
 * are recorded, so a generator-bound run is named (metrics/generator-bound.ts).
 * With several workers, this engine runs one slice: its share of the VUs and every W-th arrival.
 */
import { Pool } from 'undici';
import { durationMs } from '../executors/common.ts';
import { getExecutor } from '../executors/registry.ts';
import type { OpenExecutor } from '../executors/types.ts';
import { arrivalSchedule } from '../pacer/arrival-schedule.ts';
import { hrClock, realScheduler } from '../pacer/clock.ts';
import { startPacer } from '../pacer/pacer.ts';
import { Recorder } from '../metrics/recorder.ts';
import type { PreparedRequest } from '../request-mix.ts';
import type { WarmUp } from '../result.ts';
import { startGeneratorProbe } from './generator-probe.ts';
import { send, type SendRequest } from './http-sender.ts';
import { interleave, share } from './segments.ts';
import { isTimeout, warmUpPlan, type EngineInput, type EngineOutcome } from './types.ts';
import { warmUpOpen, warmUpTarget } from './warm-up.ts';

export async function runOpenModel(input: EngineInput): Promise<EngineOutcome> {
  const { scenario, mix, recorder, templateState } = input;
  const executor = getExecutor(scenario.executor) as OpenExecutor;
  const clock = input.clock ?? hrClock;
  const slice = input.slice ?? { index: 0, count: 1 };
  const slots = Math.max(1, share(executor.maxInFlight(scenario), slice));
  const preAllocated = Math.min(slots, Math.max(1, share(scenario.preAllocatedVUs ?? slots, slice)));
  const timeoutMs = durationMs(scenario.timeout, 10_000);
  const origin = new URL(input.baseUrl);
  const prefix = origin.pathname.replace(/\/+$/, '');
  const pool = new Pool(origin.origin, { connections: slots, pipelining: 1, keepAliveTimeout: 30_000 });
  const notes: string[] = [];
  const render = (r: PreparedRequest): SendRequest => ({
    method: r.method,
    path: prefix + r.path.render(templateState),
    headers: r.headers,
    ...(r.body ? { body: r.body.render(templateState) } : {}),
  });
  // One request, sent and recorded: the run and the warm-up (into a scratch recorder) go through the same code.
  const sendAndRecord = (into: Recorder, intended: number, t0: number, requestTimeoutMs: number, done: (failed: boolean) => void): void => {
    const request = mix.next();
    send(pool, render(request), requestTimeoutMs, (outcome) => {
      const at = clock.now() - t0;
      if (outcome.status === 0) {
        const code = outcome.error ?? 'unknown';
        // A timeout is recorded at its duration (from the intended time): see Recorder.recordError.
        into.recordError(request.nameIndex, code, at, isTimeout(code) ? at - intended : undefined);
      } else into.record(request.nameIndex, outcome.status, request.expected(outcome.status), at - intended, at);
      done(outcome.status === 0);
    });
  };
  // The whole run's schedule: its size bounds the warm-up, and this worker's slice of it is what the pacer runs.
  const segments = executor.rateSegments(scenario);
  const schedule = arrivalSchedule(segments);
  try {
    const plan = warmUpPlan(scenario);
    let warmUp: WarmUp | undefined;
    if (scenario.warmUp !== false) {
      const scratch = new Recorder(recorder.names);
      const planned = Math.ceil(schedule.total / slice.count);
      // The paced phase runs at the first rate the run will have (a ramp from 0: the end of its first segment).
      const first = segments.find((s) => s.from > 0 || s.to > 0);
      warmUp = plan.send
        ? await warmUpOpen({
            connections: preAllocated,
            target: warmUpTarget(preAllocated, planned),
            rate: (first ? first.from || first.to : 0) / slice.count,
            slots,
            send: (ms, done) => sendAndRecord(scratch, 0, clock.now(), ms, done),
            timeoutMs,
            clock,
            scheduler: input.scheduler ?? realScheduler,
            signal: input.signal,
          })
        : { durationMs: 0, requests: 0, errors: 0, connections: 0, ...(plan.skipped ? { skipped: plan.skipped } : {}) };
    }
    const startAt = input.ready ? await input.ready(warmUp) : undefined;
    const pacer = startPacer({
      schedule: interleave(schedule, slice),
      slots,
      clock,
      scheduler: input.scheduler ?? realScheduler,
      signal: input.signal,
      ...(startAt !== undefined ? { t0: startAt } : {}),
      dropped: (intended) => recorder.recordDropped(intended),
      start: (intended, done, lag) => {
        recorder.recordStart(intended, lag);
        sendAndRecord(recorder, intended, pacer.t0, timeoutMs, done);
      },
    });
    input.onStart?.(pacer.t0);
    const probe = startGeneratorProbe(recorder, clock, pacer.t0);
    let stats;
    try {
      stats = await pacer.finished;
      const grace = durationMs(scenario.gracefulStop, 10_000);
      const drained = await Promise.race([pacer.drained().then(() => true), sleep(grace).then(() => false)]);
      if (!drained) notes.push(`${pacer.inFlight()} requests were still in flight after gracefulStop (${scenario.gracefulStop}); they are not counted`);
    } finally {
      probe.stop();
    }
    if (stats.meanLagMs > 1) notes.push(`the load generator started requests ${stats.meanLagMs.toFixed(1)} ms late on average (max ${stats.maxLagMs.toFixed(0)} ms); latencies include the lag`);
    return { elapsedMs: clock.now() - pacer.t0, notes, ...(warmUp ? { warmUp } : {}) };
  } finally {
    await pool.destroy();
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
