/** `harness run`'s exit code: unreachable 3 > not certified 1 > a threshold crossed 99 > certified 0. */
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../../../src/errors/exit-codes.ts';
import { exitCodeOf } from '../../../src/job/run-job.ts';
import type { Report } from '../../../src/report/report.ts';
import { richReport } from '../../fixtures/reports/rich-report.ts';

/** The fixture's list-ramp (latency × 1.5) crosses `p(95)<12`; latencyFactor 1.2 makes send-steady cross it too. */
const crossed = (report: Report) => report.scenarios!.some((s) => s.thresholds.some((t) => !t.ok));

describe('exitCodeOf', () => {
  it('certified, thresholds held: 0', () => {
    const base = richReport({ mustStatus: 'passed' });
    const report: Report = { ...base, scenarios: base.scenarios!.map((s) => ({ ...s, thresholds: s.thresholds.map((t) => ({ ...t, ok: true })) })) };
    expect(crossed(report)).toBe(false);
    expect(exitCodeOf(report)).toBe(ExitCode.Certified);
  });

  it('certified, a threshold crossed: 99', () => {
    const report = richReport({ mustStatus: 'passed' });
    expect(crossed(report)).toBe(true);
    expect(exitCodeOf(report)).toBe(ExitCode.ThresholdsCrossed);
  });

  it('not certified wins over a crossed threshold: 1', () => {
    const report = richReport({ mustStatus: 'failed', latencyFactor: 1.2 });
    expect(report.verdict).toBe('not-certified');
    expect(exitCodeOf(report)).toBe(ExitCode.MustFailed);
  });

  it('an unreachable target wins over everything: 3', () => {
    const report: Report = { ...richReport({ latencyFactor: 1.2 }), verdict: 'not-certified' };
    report.run = { ...report.run, aborted: { code: 'HARNESS_ERR_TARGET_UNREACHABLE', message: 'unreachable' } };
    expect(exitCodeOf(report)).toBe(ExitCode.TargetUnreachable);
  });
});
