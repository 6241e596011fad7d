/** The per-file CPU reading of the test runs' timings (test/setup/file-timing.ts), which long-files.json is refreshed from. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { processCpuSeconds } from '../../setup/file-timing.ts';

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
