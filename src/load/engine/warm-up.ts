/**
 * Warm start: before t0, the connections the scenario will need are opened and the request path (ours: the
 * sender, the recorder, JIT, first allocations; the target's: routes, validators, its own JIT) is
 * exercised with the scenario's own requests, so the first second of the run measures the target like any other
 * second. Nothing here is recorded in the run's metrics; the caller reports the WarmUp beside them.
 *
 * How much: one request per connection twice (every connection opened and used), then more of the run's own
 * traffic until the warm-up has sent `warmUpTarget` requests (open model: at most 1 s at the run's first
 * rate; closed: 1 s or a tenth of the run's planned duration). Two rounds alone are not enough: V8 optimises a
 * function after some thousands of calls, so the hot path would run unoptimised, with the optimising compiler on
 * the same core, during the first measured second. Each request is given at most 2 s (a total
 * deadline: h1/connection.ts), and a failure ends the warm-up: a target that never answers costs 2 s, not the
 * scenario's timeout twice.
 *
 * In the open model the paced part (the lead) is not a pacer of its own but the front of the run's own
 * schedule, run by the run's pacer through the run's own code (engine/open-model.ts): with a separate warm-up
 * pacer, V8 throws away and recompiles the hot path at t0 (new closures, new object shapes, branches first taken
 * there), on the generator's core in the first second. No forced full garbage collection before t0 either: it
 * also throws away code and feedback the warm-up has just produced (docs/decisions/2026-11-25-warm-up-front-of-run.md).
 */
import { Recorder } from '../metrics/recorder.ts';
import type { Clock } from '../pacer/clock.ts';
import type { WarmUp } from '../result.ts';
import type { PhasedLoops } from './loop-phase.ts';

const MIN_ROUNDS = 2;
/**
 * The most warm-up requests. What optimises the hot paths is time at the run's pace more than a count (the
 * first-second figures: docs/performance.md); the time caps below bound it for fast runs, this for slow ones.
 */
const JIT_REQUESTS = 10_000;
/** Closed model: the warm-up stops after this long, or a tenth of the run's planned duration if less (the first two rounds always run). */
const SOFT_MS = 1000;
/** Open model: the longest paced phase (bench/load-engine warmstart, docs/performance.md). */
const PACED_MS = 1000;
/** Per request. */
export const MAX_WARM_UP_REQUEST_MS = 2000;

const elapsed = (clock: Clock, start: number): number => Math.round((clock.now() - start) * 10) / 10;

/**
 * How many requests the warm-up aims for: JIT_REQUESTS, but never more than a tenth of the run's planned
 * requests when those are known (a warm-up larger than that would change what the run measures: the target's
 * stored data, its quota), and never fewer than two per connection.
 */
export function warmUpTarget(connections: number, plannedRequests?: number): number {
  const wanted = plannedRequests === undefined ? JIT_REQUESTS : Math.min(JIT_REQUESTS, Math.floor(plannedRequests / 10));
  return Math.max(MIN_ROUNDS * connections, wanted);
}

export interface ConnectionRoundsOptions {
  /** Connections to open: preAllocatedVUs (this worker's share). */
  connections: number;
  /**
   * Sends one warm-up request through the same code as the run, given at most MAX_WARM_UP_REQUEST_MS, and calls
   * `done` once with whether it failed.
   */
  send(done: (failed: boolean) => void): void;
  clock: Clock;
  signal?: AbortSignal;
}

/**
 * Open model, first part: `connections` requests at once on the pool (pipelining 1), twice, so the pool opens
 * that many connections and uses each. The second part, the lead, replays the run's first 100 ms for `leadMs` in
 * front of the run's schedule, on the run's own pacer (pacer/lead-schedule.ts, engine/open-model.ts).
 */
export async function warmUpRounds(options: ConnectionRoundsOptions): Promise<WarmUp> {
  const { connections, clock } = options;
  const start = clock.now();
  let requests = 0;
  let errors = 0;
  // The caller cuts the requests in flight when the signal fires (H1Sender.abortAll), so a round never
  // waits longer than MAX_WARM_UP_REQUEST_MS, nor past an interruption.
  for (let round = 0; round < MIN_ROUNDS && connections > 0 && errors === 0 && !options.signal?.aborted; round++) {
    const failed = await Promise.all(Array.from({ length: connections }, () => new Promise<boolean>((resolve) => options.send(resolve))));
    requests += connections;
    errors += failed.filter(Boolean).length;
  }
  return { durationMs: elapsed(clock, start), requests, errors, connections };
}

/**
 * Open model: how long the lead lasts — until the warm-up has sent `remaining` more requests at `rate` per
 * second, at most PACED_MS; 0 when nothing remains or there is no rate. (With several workers the lead goes on
 * at the same rate until the common t0.)
 */
export function leadMs(remaining: number, rate: number): number {
  if (remaining <= 0 || rate <= 0) return 0;
  return Math.min(PACED_MS, (remaining / rate) * 1000);
}

/**
 * Closed model: the run's own VU loops (closed-model.ts) on the run's sender, into a scratch recorder, until
 * `requests` have been answered or SOFT_MS (a tenth of the run if less) has passed after the first two rounds; a
 * failure ends it at once, as a failed round does in the open model. The connections it opens are the run's.
 */
export async function warmUpClosed(
  loops: PhasedLoops,
  budget: { connections: number; requests: number; plannedMs: number; timeoutMs: number; names: readonly string[] },
  clock: Clock,
): Promise<WarmUp> {
  const start = clock.now();
  const softMs = Math.min(SOFT_MS, budget.plannedMs / 10);
  const amount = Math.max(budget.requests, MIN_ROUNDS * budget.connections);
  let requests = 0;
  let errors = 0;
  loops.phase = {
    recorder: new Recorder([...budget.names]),
    base: start,
    timeoutMs: Math.min(budget.timeoutMs, MAX_WARM_UP_REQUEST_MS),
    answered: (failed) => {
      requests++;
      if (failed) errors++;
      const elapsed = clock.now() - start;
      const enough = requests >= MIN_ROUNDS * budget.connections && elapsed >= softMs;
      // Each request has at most MAX_WARM_UP_REQUEST_MS, so this ends within that of the hard bound.
      if (failed || requests >= amount || enough || elapsed >= MIN_ROUNDS * MAX_WARM_UP_REQUEST_MS) loops.want(0);
    },
  };
  loops.want(budget.connections);
  await loops.idle();
  return { durationMs: elapsed(clock, start), requests, errors, connections: budget.connections };
}
