/**
 * Open-model executors (constant-arrival-rate, ramping-arrival-rate): the pacer starts arrivals on the HTTP/1.1
 * sender (h1/sender.ts) with one connection per VU (maxVUs, no pipelining), so a busy slot is a busy connection;
 * a flow's steps, which read bodies for their captures, go through an undici Pool of the same size. Latency is
 * measured from each arrival's intended time on the same monotonic clock; answers are bucketed into seconds
 * by completion time. Before t0 the preAllocatedVUs connections are opened and warmed through the same send
 * and record code as the run, into a scratch recorder (warm-up.ts); each start's lag and the event-loop delay
 * are recorded, so a generator-bound run is named (metrics/generator-bound.ts).
 * With several workers, this engine runs one slice: its share of the VUs and every W-th arrival.
 */
import { durationMs } from '../executors/common.ts';
import { getExecutor } from '../executors/registry.ts';
import type { OpenExecutor } from '../executors/types.ts';
import { arrivalSchedule } from '../pacer/arrival-schedule.ts';
import { hrClock, realScheduler } from '../pacer/clock.ts';
import { withLead } from '../pacer/lead-schedule.ts';
import { DEFAULT_BATCH_MS, DEFAULT_SLICE_MS, startPacer } from '../pacer/pacer.ts';
import { Recorder } from '../metrics/recorder.ts';
import type { WarmUp } from '../result.ts';
import { flowPool } from './flow-pool.ts';
import { startGeneratorProbe } from './generator-probe.ts';
import { H1Sender } from './h1/sender.ts';
import { requestEncoder } from './h1/request-bytes.ts';
import { ABORTED, errorCode } from './send-errors.ts';
import { interleave, share } from './segments.ts';
import { unsentWarmUp, warmUpPlan, type EngineInput, type EngineOutcome } from './types.ts';
import { leadMs, MAX_WARM_UP_REQUEST_MS, warmUpRounds, warmUpTarget } from './warm-up.ts';

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
  const flow = input.flow;
  const pool = flow ? await flowPool(origin.origin, slots) : undefined;
  // Each connection's total deadline ends a request whatever the target does (a drip, an endless body); a stop cuts all.
  const sender = new H1Sender({ origin: origin.origin, connections: slots });
  const notes: string[] = [];
  let cut = 0;
  const stop = (): void => sender.abortAll();
  input.signal?.addEventListener('abort', stop, { once: true });
  if (input.signal?.aborted) stop();
  const encode = requestEncoder(prefix, sender.host, templateState);
  // One request, sent and recorded into its phase: the warm-up's rounds and lead and the run all go through this.
  const sendAndRecord = (phase: Phase, intended: number, done: (failed: boolean) => void): void => {
    // A flow's arrival is an iteration: it holds its slot (VU) until its last step is answered.
    if (pool) return (flow as NonNullable<typeof flow>).iterate(pool, phase.recorder, phase.base, intended, phase.timeoutMs, done, input.signal);
    const request = mix.next();
    let bytes: Buffer | string;
    try {
      bytes = encode(request);
    } catch (err) {
      // A template that rendered a header or path this request cannot carry: a failure of this request, recorded.
      const at = clock.now() - phase.base;
      phase.errors++;
      phase.recorder.recordError(request.nameIndex, errorCode(err), at, at - intended);
      return done(true);
    }
    sender.send(bytes, request.method === 'HEAD', phase.timeoutMs, (outcome) => {
      const at = clock.now() - phase.base;
      // Cut by the stop, not by the target: neither an answer nor a failure of the target (noted below).
      if (outcome.error === ABORTED) return void (cut++, done(true));
      if (outcome.status === 0) {
        const code = outcome.error ?? 'unknown';
        phase.errors++;
        // Every failure (timeout, reset, truncation, header overflow) is recorded at its elapsed time from the
        // intended send time: a latency threshold never passes on requests that did not complete (thresholds/evaluate.ts).
        phase.recorder.recordError(request.nameIndex, code, at, at - intended);
      } else phase.recorder.record(request.nameIndex, outcome.status, request.expected(outcome.status), at - intended, at);
      done(outcome.status === 0);
    });
  };
  // The whole run's schedule: its size bounds the warm-up, and this worker's slice of it is what the pacer runs.
  const segments = executor.rateSegments(scenario);
  const schedule = arrivalSchedule(segments);
  const scheduler = input.scheduler ?? realScheduler;
  try {
    const plan = warmUpPlan(scenario);
    const warming = scenario.warmUp !== false && plan.send;
    // The warm-up records into a scratch recorder, never counted (its "seconds" are 100 ms: see RecorderOptions).
    // Intended times are relative to the pacer's start: before run.offset (Infinity until the run begins) an
    // arrival is the lead's, from it on the run's.
    const lead = newPhase(new Recorder(recorder.names, { secondMs: 100 }), Math.min(timeoutMs, MAX_WARM_UP_REQUEST_MS), true, 0);
    const run = newPhase(recorder, timeoutMs, false, Infinity);
    let rounds: WarmUp | undefined;
    if (warming) {
      lead.base = clock.now();
      rounds = await warmUpRounds({ connections: preAllocated, send: (done) => sendAndRecord(lead, clock.now() - lead.base, done), clock, signal: input.signal });
      // The rounds armed every connection's timer at once: they would all fire together during the run.
      sender.disarmIdle();
    }
    // The lead (the warm-up's paced part) replays the start of this worker's slice of the run (lead-schedule.ts);
    // a failed round means no lead.
    const led = withLead(interleave(schedule, slice), rounds !== undefined && rounds.errors === 0);
    const planned = Math.ceil(schedule.total / slice.count);
    const leadFor = rounds ? leadMs(warmUpTarget(preAllocated, planned) - rounds.requests, led.leadRate) : 0;
    // The rounds and the lead both send through `lead`: its errors are the warm-up's, its starts the lead's.
    const warmUpNow = (): WarmUp | undefined => {
      if (rounds) return { ...rounds, requests: rounds.requests + lead.starts, errors: lead.errors };
      return scenario.warmUp === false ? undefined : unsentWarmUp(plan);
    };
    const begin = (atMs: number, fromIndex: number): void => {
      led.begin(atMs, fromIndex);
      run.offset = led.runStartMs as number;
    };
    // Without a lead the run starts after the rounds (workers: at the common t0) on a schedule that begins at once.
    let t0Option: number | undefined;
    if (leadFor <= 0) {
      t0Option = input.ready ? await input.ready(warmUpNow()) : undefined;
      begin(0, 0);
    }
    const coreShare = input.coreShare ?? 1;
    const pacer = startPacer({
      schedule: led,
      slots,
      clock,
      scheduler,
      ...(coreShare > 1 ? { sliceMs: DEFAULT_SLICE_MS * coreShare, batchMs: DEFAULT_BATCH_MS * coreShare } : {}),
      signal: input.signal,
      ...(t0Option !== undefined ? { t0: t0Option } : {}),
      dropped: (intended) => {
        const phase = intended < run.offset ? lead : run;
        phase.recorder.recordDropped(intended - phase.offset);
      },
      // Lead and run arrivals run this same code on phases of one shape, so the run's first arrival runs code the
      // lead has already optimised (a branch first taken at t0 would make V8 recompile the hot path there).
      start: (intended, done, lag) => {
        const phase = intended < run.offset ? lead : run;
        // A failed warm-up request ends the warm-up's traffic: the lead's remaining arrivals are not sent.
        if (phase.stopOnError && phase.errors > 0) return done();
        const at = intended - phase.offset;
        phase.recorder.recordStart(at, lag);
        phase.starts++;
        phase.lagSum += lag;
        if (lag > phase.lagMax) phase.lagMax = lag;
        sendAndRecord(phase, at, done);
      },
    });
    lead.base = pacer.t0;
    run.base = pacer.t0 + run.offset;
    // During the lead, a fresh scratch recorder every 200 ms (the old one given its elapsed time, as the run's is
    // each second): the run's recorder starts fresh at t0, and V8 has then already seen that state.
    const rotate =
      leadFor > 0
        ? setInterval(() => {
            lead.recorder.elapsedMs = clock.now() - lead.base;
            lead.recorder = new Recorder(recorder.names, { secondMs: 100 });
          }, 200).unref()
        : undefined;
    if (leadFor > 0) {
      if (input.ready) {
        // Workers: the lead goes on after its planned length until the common t0, so the target sees the run's
        // rate right up to it.
        await sleep(leadFor);
        const startAt = (await input.ready(warmUpNow())) ?? clock.now();
        begin(startAt - pacer.t0, pacer.nextIndex());
        pacer.refresh();
      } else begin(leadFor, 0);
      run.base = pacer.t0 + run.offset;
    }
    const runT0 = run.base;
    if (rotate) setTimeout(() => clearInterval(rotate), Math.max(0, runT0 - clock.now())).unref();
    input.onStart?.(runT0);
    const probe = startGeneratorProbe(recorder, clock, runT0);
    try {
      await pacer.finished;
      const grace = durationMs(scenario.gracefulStop, 10_000);
      // A stopped run does not wait: what is in flight was cut by `stop`, so drained() settles at once.
      const drained = await Promise.race([pacer.drained().then(() => true), sleep(grace).then(() => false)]);
      if (cut > 0) notes.push(`${cut} requests in flight were cut when the run was stopped; they are not counted`);
      if (!drained) notes.push(`${pacer.inFlight()} requests were still in flight after gracefulStop (${scenario.gracefulStop}); they are not counted`);
    } finally {
      probe.stop();
    }
    const meanLag = run.starts ? run.lagSum / run.starts : 0;
    if (meanLag > 1) notes.push(`the load generator started requests ${meanLag.toFixed(1)} ms late on average (max ${run.lagMax.toFixed(0)} ms); latencies include the lag`);
    const warmUp = warmUpNow();
    const warmUpDuration = rounds ? { durationMs: Math.round((rounds.durationMs + (runT0 - pacer.t0)) * 10) / 10 } : {};
    return { elapsedMs: Math.max(0, clock.now() - runT0), notes, ...(warmUp ? { warmUp: { ...warmUp, ...warmUpDuration } } : {}) };
  } finally {
    input.signal?.removeEventListener('abort', stop);
    sender.close();
    await pool?.destroy();
  }
}

/**
 * Where an arrival is recorded: the warm-up (a scratch recorder, never counted) or the run. One shape for both, so
 * the code that starts and records arrivals stays the same optimised code when the run begins.
 */
interface Phase {
  recorder: Recorder;
  timeoutMs: number;
  /** The warm-up sends nothing more after a failure; the run goes on. */
  stopOnError: boolean;
  /** Intended times given to this phase are relative to `offset` ms after the pacer's start (the run's: Infinity until it begins)… */
  offset: number;
  /** …which is this clock reading. */
  base: number;
  starts: number;
  errors: number;
  lagSum: number;
  lagMax: number;
}

function newPhase(recorder: Recorder, timeoutMs: number, stopOnError: boolean, offset: number): Phase {
  // The fields that take fractional ms start as doubles (NaN, then their value): a field created as a small integer
  // changes its representation at its first fraction, and the two phases would then have different shapes at t0.
  const phase = { recorder, timeoutMs, stopOnError, offset: NaN, base: NaN, starts: 0, errors: 0, lagSum: NaN, lagMax: NaN };
  phase.offset = offset;
  phase.base = 0;
  phase.lagSum = 0;
  phase.lagMax = 0;
  return phase;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
