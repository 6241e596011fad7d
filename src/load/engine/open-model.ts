/**
 * Open-model executors (constant-arrival-rate, ramping-arrival-rate): the pacer starts arrivals on an undici
 * Pool with one connection per VU (maxVUs, no pipelining), so a busy slot is a busy connection. Latency is
 * measured from each arrival's intended time on the same monotonic clock; answers are bucketed into seconds
 * by completion time.
 */
import { Pool } from 'undici';
import { durationMs } from '../executors/common.ts';
import { getExecutor } from '../executors/registry.ts';
import type { OpenExecutor } from '../executors/types.ts';
import { arrivalSchedule } from '../pacer/arrival-schedule.ts';
import { hrClock, realScheduler } from '../pacer/clock.ts';
import { startPacer } from '../pacer/pacer.ts';
import type { EngineInput, EngineOutcome } from './types.ts';
import { send } from './http-sender.ts';

export async function runOpenModel(input: EngineInput): Promise<EngineOutcome> {
  const { scenario, mix, recorder, templateState } = input;
  const executor = getExecutor(scenario.executor) as OpenExecutor;
  const clock = input.clock ?? hrClock;
  const slots = executor.maxInFlight(scenario);
  const timeoutMs = durationMs(scenario.timeout, 10_000);
  const origin = new URL(input.baseUrl);
  const prefix = origin.pathname.replace(/\/+$/, '');
  const pool = new Pool(origin.origin, { connections: slots, pipelining: 1, keepAliveTimeout: 30_000 });
  const notes: string[] = [];
  try {
    const pacer = startPacer({
      schedule: arrivalSchedule(executor.rateSegments(scenario)),
      slots,
      clock,
      scheduler: input.scheduler ?? realScheduler,
      signal: input.signal,
      dropped: (intended) => recorder.recordDropped(intended),
      start: (intended, done) => {
        const request = mix.next();
        const t0 = pacer.t0;
        send(
          pool,
          {
            method: request.method,
            path: prefix + request.path.render(templateState),
            headers: request.headers,
            ...(request.body ? { body: request.body.render(templateState) } : {}),
          },
          timeoutMs,
          (outcome) => {
            const at = clock.now() - t0;
            if (outcome.status === 0) recorder.recordError(request.nameIndex, outcome.error ?? 'unknown', at);
            else recorder.record(request.nameIndex, outcome.status, request.expected(outcome.status), at - intended, at);
            done();
          },
        );
      },
    });
    input.onStart?.(pacer.t0);
    const stats = await pacer.finished;
    const grace = durationMs(scenario.gracefulStop, 10_000);
    const drained = await Promise.race([pacer.drained().then(() => true), sleep(grace).then(() => false)]);
    if (!drained) notes.push(`${pacer.inFlight()} requests were still in flight after gracefulStop (${scenario.gracefulStop}); they are not counted`);
    if (stats.meanLagMs > 1) notes.push(`the load generator started requests ${stats.meanLagMs.toFixed(1)} ms late on average (max ${stats.maxLagMs.toFixed(0)} ms): it may be the bottleneck; latencies include the lag`);
    return { elapsedMs: clock.now() - pacer.t0, notes };
  } finally {
    await pool.destroy();
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
