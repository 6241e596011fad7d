/**
 * The open model's warm-up lead in front of the run's schedule: lead arrivals evenly at their rate until the run
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
  it('before begin: lead arrivals at the lead rate, with no end', () => {
    const s = withLead(200, run());
    expect([0, 1, 2, 1000].map((n) => s.timeOf(n))).toEqual([0, 5, 10, 5000]);
    expect(s.runStartMs).toBeUndefined();
    expect(s.durationMs).toBe(Infinity);
  });

  it('after begin: the lead arrivals due before the run, then the run\'s own arrivals shifted to its start', () => {
    const s = withLead(200, run());
    s.begin(50, 0);
    // Lead arrivals at 0, 5 … 45 (ten of them); the run's arrival k at 50 + 10k.
    expect(s.leadCount).toBe(10);
    expect(s.timeOf(9)).toBe(45);
    expect(s.timeOf(10)).toBe(50);
    expect(s.timeOf(11)).toBe(60);
    expect(s.timeOf(10 + 99)).toBe(50 + 990);
    expect(s.timeOf(10 + 100)).toBeUndefined();
    expect(s.total).toBe(110);
    expect(s.durationMs).toBe(1050);
    expect(() => s.begin(60, 0)).toThrow(/already begun/);
  });

  it('a begin for a moment already passed keeps the arrivals already handed out as lead ones', () => {
    const s = withLead(200, run());
    s.begin(20, 7);
    expect(s.leadCount).toBe(7);
    expect(s.timeOf(7)).toBe(20);
  });

  it('with no lead (begin at 0) it is the run\'s schedule itself, a worker\'s interleaved slice included', () => {
    const slice = interleave(run(), { index: 1, count: 2 });
    const s = withLead(0, slice);
    s.begin(0, 0);
    expect(s.leadCount).toBe(0);
    for (const k of [0, 1, 49]) expect(s.timeOf(k)).toBe(slice.timeOf(k));
    expect(s.timeOf(50)).toBeUndefined();
  });
});

describe('a pacer on a lead schedule', () => {
  it('switches from the lead to the run at the begin it is told while running, starting every run arrival once', async () => {
    const time = new FakeTime();
    const s = withLead(1000, arrivalSchedule([{ durationMs: 100, from: 500, to: 500 }]));
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
    expect(lead).toEqual(Array.from({ length: 40 }, (_, k) => k));
    expect(runStarts).toHaveLength(50);
    runStarts.forEach((t, k) => expect(t).toBeCloseTo(k * 2, 9));
    expect(stats.started).toBe(90);
    expect(stats.dropped).toBe(0);
  });
});
