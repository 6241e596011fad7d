/**
 * The test sequencer's order (test/setup/long-files-first.ts) and the per-file CPU reading it is refreshed from
 * (test/setup/file-timing.ts).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { processCpuSeconds } from '../../setup/file-timing.ts';
import { scheduleOrder, type FileTiming } from '../../setup/long-files-first.ts';

describe('scheduleOrder', () => {
  it('with every file waiting (or no CPU recorded), longest first', () => {
    const timings: Record<string, FileTiming> = { a: { wall: 20, cpu: 0 }, b: { wall: 80, cpu: 0 }, c: { wall: 50, cpu: 1 } };
    expect(scheduleOrder(timings, 6)).toEqual(['b', 'c', 'a']);
  });

  it('gives waiting files a share of the workers as large as their share of the wall time, longest first in each kind', () => {
    const timings: Record<string, FileTiming> = {
      w1: { wall: 80, cpu: 2 }, w2: { wall: 70, cpu: 2 }, w3: { wall: 60, cpu: 1 }, w4: { wall: 30, cpu: 1 },
      c1: { wall: 50, cpu: 40 }, c2: { wall: 40, cpu: 30 }, c3: { wall: 20, cpu: 15 },
    };
    // Waiting files hold 240 of the 350 s of wall time: 4 of 6 workers. w1–w4 start first, then c1 and c2; at 30 s
    // w4 ends and four waiting files no longer run, but none is left: c3.
    expect(scheduleOrder(timings, 6)).toEqual(['w1', 'w2', 'w3', 'w4', 'c1', 'c2', 'c3']);
    // Three workers: 2 for waiting files. w1 and w2, then c1; c2 when c1 ends at 50 s (w1 and w2 still run); w3 when
    // w2 ends at 70 s and w4 when w1 ends at 80 s (one waiting file ran then); c3 when c2 ends at 90 s.
    expect(scheduleOrder(timings, 3)).toEqual(['w1', 'w2', 'c1', 'c2', 'w3', 'w4', 'c3']);
  });

  it('always leaves a worker to computing files', () => {
    const timings: Record<string, FileTiming> = { w1: { wall: 100, cpu: 1 }, w2: { wall: 90, cpu: 1 }, c1: { wall: 5, cpu: 5 }, c2: { wall: 4, cpu: 4 } };
    // Waiting files are 95 % of the wall time: still one worker of two for computing files.
    expect(scheduleOrder(timings, 2)).toEqual(['w1', 'c1', 'c2', 'w2']);
  });
});

describe('processCpuSeconds', () => {
  it("adds the process's and its reaped children's user and system time, past a command name with spaces and parentheses", () => {
    const stat = join(mkdtempSync(join(tmpdir(), 'proc-stat-')), 'stat');
    // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime cutime cstime …
    writeFileSync(stat, '4242 (node (x) y) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 50 700 300 20 0 7 0\n');
    expect(processCpuSeconds(stat)).toBe(13);
    expect(processCpuSeconds(join(stat, 'missing'))).toBeUndefined();
  });

  it('reads this process on Linux, and grows as it computes', () => {
    const before = processCpuSeconds();
    if (before === undefined) return; // not Linux: nothing is recorded, by design
    const end = Date.now() + 150;
    while (Date.now() < end);
    expect(processCpuSeconds()!).toBeGreaterThan(before);
  });
});
