import { describe, expect, it } from 'vitest';
import { interleave } from '../../../src/load/engine/segments.ts';
import { arrivalSchedule } from '../../../src/load/pacer/arrival-schedule.ts';
import { DEFAULT_BATCH_MS, DEFAULT_SLICE_MS, startPacer } from '../../../src/load/pacer/pacer.ts';
import { FakeTime } from './fake-scheduler.ts';

describe('arrivalSchedule', () => {
  it('spaces a constant rate evenly, first arrival at 0', () => {
    const s = arrivalSchedule([{ durationMs: 1000, from: 1000, to: 1000 }]);
    expect(s.total).toBe(1000);
    expect([0, 1, 2, 999].map((n) => s.timeOf(n))).toEqual([0, 1, 2, 999]);
    expect(s.timeOf(1000)).toBeUndefined();
  });

  it('ramps with shrinking gaps and the integral of the rate as the count', () => {
    // 0 → 100/s over 2 s: 100 arrivals; A(t) = 25 t², so arrival n is due at sqrt(n / 25) s.
    const s = arrivalSchedule([{ durationMs: 2000, from: 0, to: 100 }]);
    expect(s.total).toBe(100);
    expect(s.timeOf(25)).toBeCloseTo(1000, 6);
    expect(s.timeOf(99)).toBeCloseTo(Math.sqrt(99 / 25) * 1000, 6);
    const gaps = [10, 50, 90].map((n) => s.timeOf(n + 1)! - s.timeOf(n)!);
    expect(gaps[0]).toBeGreaterThan(gaps[1]!);
    expect(gaps[1]).toBeGreaterThan(gaps[2]!);
  });

  it('follows consecutive segments, including a ramp down and a pause', () => {
    const s = arrivalSchedule([
      { durationMs: 1000, from: 10, to: 10 },
      { durationMs: 1000, from: 0, to: 0 },
      { durationMs: 1000, from: 10, to: 0 },
    ]);
    expect(s.total).toBe(15);
    expect(s.timeOf(9)).toBeCloseTo(900, 6);
    expect(s.timeOf(10)).toBeCloseTo(2000, 6); // the pause has no arrivals
    const last = s.timeOf(14)!;
    expect(last).toBeGreaterThan(2000);
    expect(last).toBeLessThan(3000);
  });
});

function pacerRun(opts: { rate: number; durationMs: number; slots: number; serviceMs?: number; time?: FakeTime }) {
  const time = opts.time ?? new FakeTime();
  const started: Array<{ intended: number; at: number }> = [];
  const dropped: number[] = [];
  const latencies: number[] = [];
  const pacer = startPacer({
    schedule: arrivalSchedule([{ durationMs: opts.durationMs, from: opts.rate, to: opts.rate }]),
    slots: opts.slots,
    clock: time,
    scheduler: time,
    start: (intended, done) => {
      started.push({ intended, at: time.now() });
      if (opts.serviceMs !== undefined) {
        time.after(opts.serviceMs, () => {
          latencies.push(time.now() - intended);
          done();
        });
      }
    },
    dropped: (intended) => dropped.push(intended),
  });
  return { time, pacer, started, dropped, latencies };
}

describe('startPacer (fake clock)', () => {
  it('starts every arrival at its intended time, evenly spaced, in small batches at high rates', async () => {
    const run = pacerRun({ rate: 20_000, durationMs: 100, slots: 1000, serviceMs: 0.2 });
    run.time.runUntil(200);
    const stats = await run.pacer.finished;
    expect(stats.started).toBe(2000);
    expect(stats.dropped).toBe(0);
    const intended = run.started.map((s) => s.intended);
    intended.forEach((t, i) => expect(t).toBeCloseTo(i * 0.05, 9));
    // No start is early, and none later than one turn of the loop.
    for (const s of run.started) {
      expect(s.at).toBeGreaterThanOrEqual(s.intended);
      expect(s.at - s.intended).toBeLessThan(0.02);
    }
  });

  it('sleeps at low rates instead of spinning: a timer to a millisecond before, then a short sleep', async () => {
    const time = new FakeTime();
    let turns = 0;
    const sleeps: number[] = [];
    const schedule = arrivalSchedule([{ durationMs: 1000, from: 10, to: 10 }]);
    const started: number[] = [];
    const pacer = startPacer({
      schedule,
      slots: 10,
      clock: time,
      scheduler: { after: (ms, fn) => (turns++, time.after(ms, fn)), soon: (fn) => (turns++, time.soon(fn)), sleep: (ms) => (sleeps.push(ms), time.stall(ms)) },
      start: (intended, done) => (started.push(time.now() - intended), done()),
      dropped: () => {},
    });
    time.runUntil(1100);
    expect((await pacer.finished).started).toBe(10);
    expect(turns).toBeLessThan(40);
    // Each arrival after the first: woken a millisecond early, then slept the rest, and started on time.
    expect(sleeps.length).toBeGreaterThanOrEqual(9);
    for (const ms of sleeps) expect(ms).toBeLessThanOrEqual(1);
    // (The first starts on the first turn of the loop, one fake turn late.)
    expect(started[0]).toBeLessThan(0.02);
    for (const lag of started.slice(1)) expect(lag).toBeCloseTo(0, 9);
  });

  it('sleeps in slices of at most 0.2 ms while a request is in flight, with a turn of the loop between them to read its answer', async () => {
    const time = new FakeTime();
    const sleeps: number[] = [];
    let soon = 0;
    const pacer = startPacer({
      schedule: arrivalSchedule([{ durationMs: 20, from: 1000, to: 1000 }]),
      slots: 10,
      clock: time,
      scheduler: { after: time.after, soon: (fn) => (soon++, time.soon(fn)), sleep: (ms) => (sleeps.push(ms), time.stall(ms)) },
      // Every request takes 5 ms: from the first start on, something is always in flight.
      start: (_i, done) => time.after(5, done),
      dropped: () => {},
    });
    time.runUntil(40);
    const stats = await pacer.finished;
    expect(stats.started).toBe(20);
    // Never a spin: the wait before each arrival is slept, in slices (the last one to the arrival's time)…
    expect(sleeps.length).toBeGreaterThan(20 * 4);
    for (const ms of sleeps) expect(ms).toBeLessThanOrEqual(DEFAULT_SLICE_MS + 1e-9);
    // …each followed by a turn of the loop (where answers are read), and every arrival still starts on time.
    expect(soon).toBeGreaterThanOrEqual(sleeps.length - 1);
    expect(stats.maxLagMs).toBeLessThan(0.02);
  });

  it.each([
    [10_000, 2],
    [20_000, 4],
  ] as const)('above 5k req/s (%i/s) starts arrivals in batches about 0.2 ms apart (%i each), none early, none later than 0.2 ms and a turn', async (rate, perBatch) => {
    const time = new FakeTime();
    const starts: Array<{ intended: number; at: number }> = [];
    const pacer = startPacer({
      schedule: arrivalSchedule([{ durationMs: 10, from: rate, to: rate }]),
      slots: 1000,
      clock: time,
      scheduler: { after: time.after, soon: time.soon, sleep: (ms) => time.stall(ms) },
      start: (intended, done) => (starts.push({ intended, at: time.now() }), time.after(0.05, done)),
      dropped: () => {},
    });
    time.runUntil(20);
    const stats = await pacer.finished;
    expect(stats.started).toBe((rate * 10) / 1000);
    expect(stats.dropped).toBe(0);
    for (const s of starts) {
      expect(s.at).toBeGreaterThanOrEqual(s.intended);
      expect(s.at - s.intended).toBeLessThan(DEFAULT_BATCH_MS + 0.02);
    }
    // Wakes that start arrivals (distinct start times): about one per 0.2 ms, not one per arrival. (On the fake clock
    // an arrival whose time is a rounding error past its wake starts one fake turn later, on a wake of its own.)
    const wakes = new Set(starts.map((s) => s.at)).size;
    expect(wakes).toBeLessThanOrEqual(Math.ceil((stats.started / perBatch) * 1.2) + 1);
    expect(wakes).toBeGreaterThanOrEqual(10 / 0.22 - 1);
  });

  it('at 5k req/s and below every arrival has its own wake, on time', async () => {
    const time = new FakeTime();
    const lags: number[] = [];
    const pacer = startPacer({
      schedule: arrivalSchedule([{ durationMs: 10, from: 5000, to: 5000 }]),
      slots: 100,
      clock: time,
      scheduler: { after: time.after, soon: time.soon, sleep: (ms) => time.stall(ms) },
      start: (intended, done) => (lags.push(time.now() - intended), time.after(0.05, done)),
      dropped: () => {},
    });
    time.runUntil(20);
    expect((await pacer.finished).started).toBe(50);
    for (const lag of lags.slice(1)) expect(lag).toBeCloseTo(0, 6);
  });

  it('counts arrivals that find every slot busy as dropped, never delaying them', async () => {
    // 1000/s for 100 ms with 5 slots and a target that never answers: 5 start, 95 are dropped on time.
    const run = pacerRun({ rate: 1000, durationMs: 100, slots: 5 });
    run.time.runUntil(150);
    const stats = await run.pacer.finished;
    expect(stats.started).toBe(5);
    expect(stats.dropped).toBe(95);
    expect(run.dropped[0]).toBe(5);
    expect(run.dropped.at(-1)).toBe(99);
    expect(run.pacer.inFlight()).toBe(5);
  });

  it('frees a slot when an arrival finishes, and drops only while all are busy', async () => {
    // 1 ms between arrivals, 2.5 ms service, 2 slots: of every three arrivals two find a free slot
    // (t=0 → A until 2.5, t=1 → B until 3.5, t=2 dropped, t=3 → A, t=4 → B, t=5 dropped …).
    const run = pacerRun({ rate: 1000, durationMs: 1000, slots: 2, serviceMs: 2.5 });
    run.time.runUntil(1100);
    const stats = await run.pacer.finished;
    expect(stats.started + stats.dropped).toBe(1000);
    expect(stats.started).toBeGreaterThanOrEqual(666);
    expect(stats.started).toBeLessThanOrEqual(668);
    expect(run.dropped.slice(0, 3)).toEqual([2, 5, 8]);
    await run.pacer.drained();
  });

  it('measures latency from the intended time when the loop stalls (no coordinated omission)', async () => {
    const time = new FakeTime();
    const run = pacerRun({ rate: 1000, durationMs: 20, slots: 100, serviceMs: 1, time });
    time.runUntil(5.5);
    time.stall(10); // the event loop is blocked for 10 ms: arrivals 6..15 become due meanwhile
    time.runUntil(40);
    const stats = await run.pacer.finished;
    expect(stats.started).toBe(20);
    const late = run.started.filter((s) => s.intended >= 6 && s.intended <= 15);
    expect(late).toHaveLength(10);
    // All ten start together after the stall, but each keeps its own intended time …
    for (const s of late) expect(s.at).toBeCloseTo(late[0]!.at, 6);
    // … so the first of them reports about 10 ms of latency, as a user would have seen, not 1 ms.
    expect(Math.max(...run.latencies)).toBeGreaterThan(10);
    expect(stats.maxLagMs).toBeGreaterThan(9);
  });

  it('stops starting arrivals when aborted', async () => {
    const time = new FakeTime();
    const abort = new AbortController();
    const pacer = startPacer({
      schedule: arrivalSchedule([{ durationMs: 1000, from: 100, to: 100 }]),
      slots: 10,
      clock: time,
      scheduler: time,
      signal: abort.signal,
      start: (_i, done) => done(),
      dropped: () => {},
    });
    time.runUntil(95);
    abort.abort();
    time.runUntil(2000);
    const stats = await pacer.finished;
    expect(stats.aborted).toBe(true);
    expect(stats.started).toBe(10);
  });
});

describe('pacer: a shared t0 and the interleaved slices of several workers', () => {
  it('starts nothing before a t0 that lies ahead, then keeps the schedule relative to it, lag reported per start', () => {
    const time = new FakeTime();
    const starts: Array<[number, number, number]> = [];
    const pacer = startPacer({
      schedule: arrivalSchedule([{ durationMs: 100, from: 100, to: 100 }]),
      slots: 10,
      clock: time,
      scheduler: time,
      t0: 50,
      dropped: () => {},
      start: (intended, done, lag) => {
        starts.push([time.t, intended, lag]);
        done();
      },
    });
    expect(pacer.t0).toBe(50);
    time.runUntil(49);
    expect(starts).toEqual([]);
    time.runUntil(200);
    expect(starts.map(([, intended]) => intended)).toEqual(Array.from({ length: 10 }, (_, n) => n * 10));
    for (const [at, intended, lag] of starts) {
      expect(at).toBeGreaterThanOrEqual(50 + intended);
      expect(lag).toBeCloseTo(at - 50 - intended, 6);
    }
  });

  it('two pacers on interleaved slices of one schedule start exactly its arrivals, alternately', () => {
    const time = new FakeTime();
    const started: Array<[number, number]> = [];
    for (const index of [0, 1]) {
      startPacer({
        schedule: interleave(arrivalSchedule([{ durationMs: 200, from: 100, to: 100 }]), { index, count: 2 }),
        slots: 5,
        clock: time,
        scheduler: time,
        t0: 0,
        dropped: () => {},
        start: (intended, done) => {
          started.push([intended, index]);
          done();
        },
      });
    }
    time.runUntil(300);
    started.sort((a, b) => a[0] - b[0]);
    expect(started.map(([t]) => t)).toEqual(Array.from({ length: 20 }, (_, n) => n * 10));
    // Worker 0 takes arrivals 0, 2, 4 …; worker 1 takes 1, 3, 5 …: never two in a row from one worker.
    expect(started.map(([, w]) => w)).toEqual(Array.from({ length: 20 }, (_, n) => n % 2));
  });

  it('comes back to the event loop between arrivals that finish as soon as they start (one sleep per turn)', async () => {
    const time = new FakeTime();
    let turns = 0;
    let sleeps = 0;
    const pacer = startPacer({
      schedule: arrivalSchedule([{ durationMs: 100, from: 10_000, to: 10_000 }]),
      slots: 4,
      clock: time,
      scheduler: { after: time.after, soon: (fn) => (turns++, time.soon(fn)), sleep: (ms) => (sleeps++, time.stall(ms)) },
      // A send that fails synchronously: done before start returns.
      start: (_i, done) => done(),
      dropped: () => {},
    });
    time.runUntil(200);
    const stats = await pacer.finished;
    expect(stats.started).toBe(1000);
    // Never two sleeps without a turn of the loop between them.
    expect(turns).toBeGreaterThanOrEqual(sleeps);
  });
});
