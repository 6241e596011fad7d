/**
 * vitest setupFile: records each test file's wall seconds and CPU seconds (its worker's, and its child processes'
 * once reaped: the CLI, k6, tsc, npm) to test-output/file-timings.jsonl, which long-files-refresh.mjs turns into
 * long-files.json for the sequencer (long-files-first.ts). A worker runs one file at a time, so the process's
 * counters between the file's first and last hook are that file's. Linux only (/proc/self/stat); elsewhere nothing
 * is recorded. The sequencer empties the file when a run starts.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FILE_TIMINGS = join(ROOT, 'test-output', 'file-timings.jsonl');
/** /proc reports CPU time in USER_HZ, which is 100 on every Linux architecture. */
const TICKS_PER_SECOND = 100;

/** This process's CPU seconds, its reaped children's included; undefined where /proc is not there. */
export function processCpuSeconds(stat = '/proc/self/stat'): number | undefined {
  if (!existsSync(stat)) return undefined;
  const text = readFileSync(stat, 'utf8');
  // Fields after the command name (which may hold spaces and parentheses): utime, stime, cutime, cstime are the
  // 14th to 17th of the line, the 12th to 15th after it.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const [utime, stime, cutime, cstime] = fields.slice(11, 15).map(Number);
  return (utime! + stime! + cutime! + cstime!) / TICKS_PER_SECOND;
}

let start: number | undefined;
let startedAt = 0;

beforeAll(() => {
  start = processCpuSeconds();
  startedAt = Date.now();
});

afterAll(() => {
  const end = processCpuSeconds();
  const file = expect.getState().testPath;
  if (start === undefined || end === undefined || !file) return;
  const timing = { file: relative(ROOT, file).split('\\').join('/'), wall: Math.round((Date.now() - startedAt) / 100) / 10, cpu: Math.round((end - start) * 10) / 10 };
  mkdirSync(dirname(FILE_TIMINGS), { recursive: true });
  appendFileSync(FILE_TIMINGS, `${JSON.stringify(timing)}\n`);
});
