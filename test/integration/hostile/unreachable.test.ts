/**
 * A target that cannot be reached at the preflight (hangs, drips, resets, nothing listens): `run` and `load` end
 * with exit 3, "unreachable", and their report files, having run no check.
 */
import { describe, expect, it } from 'vitest';
import { hostileTargets } from './lib/hostile-run.ts';

const hostile = hostileTargets();

describe('hostile targets: harness run --no-load ends, bounded, with a report', () => {
  it.each([
    ['accepts and never answers', 'never-answers'],
    ['drips one byte every 100 ms', 'drip'],
    ['resets every connection', 'reset'],
    ['crashed before the run (nothing listens)', 'closed-port'],
  ] as const)('preflight: %s → exit 3, unreachable', async (_name, kind) => {
    const { result, report } = await hostile.run(kind);
    expect(result.code).toBe(3);
    expect(report.run.aborted.code).toBe('HARNESS_ERR_TARGET_UNREACHABLE');
    expect(report.verdict).toBe('incomplete');
    expect(report.checks).toHaveLength(0);
  });
});

describe('hostile targets in the preflight of harness load --scenario smoke', () => {
  it.each([
    ['accepts and never answers', 'never-answers'],
    ['drips one byte every 100 ms', 'drip'],
    ['crashed before the run', 'closed-port'],
  ] as const)('%s → exit 3 with report files', async (_name, kind) => {
    const { result, report } = await hostile.run(kind, { command: 'load' });
    expect(result.code).toBe(3);
    expect(report.run.aborted.code).toBe('HARNESS_ERR_TARGET_UNREACHABLE');
  });
});
