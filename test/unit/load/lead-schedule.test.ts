/**
 * The open model's warm-up lead in front of the run's schedule: the run's first 100 ms replayed until the run
 * begins, then the run's own arrivals from that moment, none lost or repeated; the pacer follows a begin made
 * while it runs (workers learn their common t0 only then). Fake clock: exact, never timing-dependent.
 */
import { describe, expect, it } from 'vitest';
import { interleave } from '../../../src/load/engine/segments.ts';
import { arrivalSchedule } from '../../../src/load/pacer/arrival-schedule.ts';
import { withLead } from '../../../src/load/pacer/lead-schedule.ts';
import { startPacer } from '../../../src/load/pacer/pacer.ts';
import { FakeTime } from './fake-scheduler.ts';

const run = () => arrivalSchedule([{ durationMs: 1000, from: 100, to: 100 }]);

describe('withLead', () => {
  it('before begin: the run\'s first 100 ms replayed period after period, at the run\'s own spacing, with no end', () => {
    const s = withLead(run());
    expect(s.leadRate).toBeCloseTo(100, 9);
    [0, 1, 9, 10, 11, 1000].forEach((n) => expect(s.timeOf(n)).toBeCloseTo(n * 10, 9));
    expect(s.runStartMs).toBeUndefined();
    expect(s.durationMs).toBe(Infinity);
  });

  it('replays the start of a ramp, not a rate the run has not reached', () => {
    // 0 → 100/s over 1 s: arrival n at sqrt(n / 50) s; the first 100 ms hold arrival 0 only, the next is at 141 ms.
    const s = withLead(arrivalSchedule([{ durationMs: 1000, from: 0, to: 100 }]));
    expect(s.timeOf(0)).toBe(0);
    expect(s.timeOf(1)).toBeCloseTo(Math.sqrt(1 / 50) * 1000, 6);
    expect(s.leadRate).toBeCloseTo(1000 / (Math.sqrt(1 / 50) * 1000), 6);
  });

  it('after begin: the lead arrivals due before the run, then the run\'s own arrivals shifted to its start', () => {
    const s = withLead(run());
    s.begin(55, 0);
    // Lead arrivals at 0, 10 … 50 (six of them); the run's arrival k at 55 + 10k.
    expect(s.leadCount).toBe(6);
    expect(s.timeOf(5)).toBeCloseTo(50, 9);
    expect(s.timeOf(6)).toBe(55);
    expect(s.timeOf(7)).toBeCloseTo(65, 9);
    expect(s.timeOf(6 + 99)).toBeCloseTo(55 + 990, 9);
    expect(s.timeOf(6 + 100)).toBeUndefined();
    expect(s.total).toBe(106);
    expect(s.durationMs).toBe(1055);
    expect(() => s.begin(60, 0)).toThrow(/already begun/);
  });

  // Each row: when the run begins, how many arrivals were already handed out, the lead count that follows, and
  // (where the case asks it) the last lead arrival's index and time.
  it.each([
    ['a begin past whole periods counts every lead arrival of them', 1000, 0, 100, [99, 990]],
    ['a begin for a moment already passed keeps the arrivals already handed out as lead ones', 20, 7, 7, undefined],
  ] as const)('%s', (_name, beginAt, handedOut, leadCount, lastLead) => {
    const s = withLead(run());
    s.begin(beginAt, handedOut);
    expect(s.leadCount).toBe(leadCount);
    if (lastLead) expect(s.timeOf(lastLead[0])).toBeCloseTo(lastLead[1], 9);
    expect(s.timeOf(leadCount)).toBe(beginAt);
  });

  it('without a lead (begin at 0) it is the run\'s schedule itself, a worker\'s interleaved slice included', () => {
    const slice = interleave(run(), { index: 1, count: 2 });
    const s = withLead(slice, false);
    s.begin(0, 0);
    expect(s.leadRate).toBe(0);
    expect(s.leadCount).toBe(0);
    for (const k of [0, 1, 49]) expect(s.timeOf(k)).toBe(slice.timeOf(k));
    expect(s.timeOf(50)).toBeUndefined();
  });
});

describe('a pacer on a lead schedule', () => {
  it('switches from the lead to the run at the begin it is told while running, starting every run arrival once', async () => {
    const time = new FakeTime();
    const s = withLead(arrivalSchedule([{ durationMs: 100, from: 1000, to: 1000 }]));
    const starts: number[] = [];
    const pacer = startPacer({
      schedule: s,
      slots: 10,
      clock: time,
      scheduler: time,
      start: (intended, done) => {
        starts.push(intended);
        done();
      },
      dropped: () => {},
    });
    time.runUntil(30.5);
    // Told at 30.5 ms that the run begins at 40 ms (a worker's common t0).
    s.begin(40, pacer.nextIndex());
    pacer.refresh();
    time.runUntil(200);
    const stats = await pacer.finished;
    const lead = starts.filter((t) => t < 40);
    const runStarts = starts.filter((t) => t >= 40).map((t) => t - 40);
    expect(lead).toHaveLength(40);
    lead.forEach((t, k) => expect(t).toBeCloseTo(k, 9));
    expect(runStarts).toHaveLength(100);
    runStarts.forEach((t, k) => expect(t).toBeCloseTo(k, 9));
    expect(stats.started).toBe(140);
    expect(stats.dropped).toBe(0);
  });
});
