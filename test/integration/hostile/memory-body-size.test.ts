/**
 * Bodies bigger than the harness keeps, on every answer: every suite runs, and the child's peak RSS stays within
 * the goal (lib/memory-case.ts). The child's memory is measured in the child process.
 */
import { describe, it } from 'vitest';
import { hostileTargets } from './lib/hostile-run.ts';
import { everySuiteWithinGoal, expectEvidenceCut } from './lib/memory-case.ts';

const hostile = hostileTargets();

describe('hostile targets: harness run --no-load ends, bounded, with a report', () => {
  it.each([
    ['10 MB of ASCII (1 MiB kept, the rest counted)', 'big-body'],
    ['2 MiB of non-ASCII bytes (two-byte text in V8)', 'non-ascii-body'],
  ] as const)('%s on every answer: every suite runs, peak RSS of the child at most 600 MB', async (_name, kind) => {
    const { report } = await everySuiteWithinGoal(hostile, kind);
    expectEvidenceCut(report, kind);
  }, 180_000);
});
