import { describe, expect, it } from 'vitest';
import type { Level, CheckStatus } from '../../../src/conformance/check.ts';
import { summarize, verdictOf, type CheckResult } from '../../../src/conformance/result.ts';

const result = (level: Level, status: CheckStatus): CheckResult => ({
  id: `x.${level}.${status}`,
  suite: 'x',
  title: 't',
  level,
  specRef: 's',
  status,
  durationMs: 1,
});

describe('verdict', () => {
  it.each([
    [[result('MUST', 'passed'), result('SHOULD', 'passed')], 'certified'],
    [[result('MUST', 'passed'), result('SHOULD', 'failed')], 'certified-with-warnings'],
    [[result('MUST', 'passed'), result('PROFILE', 'failed')], 'certified-with-warnings'],
    [[result('MUST', 'passed'), result('PROFILE', 'error')], 'certified-with-warnings'],
    [[result('MUST', 'skipped'), result('SHOULD', 'passed')], 'certified-with-warnings'],
    [[result('MUST', 'failed'), result('SHOULD', 'passed')], 'not-certified'],
    [[result('MUST', 'error')], 'not-certified'],
    [[result('SHOULD', 'skipped'), result('MUST', 'passed')], 'certified'],
  ] as const)('%#: follows the levels', (results, verdict) => {
    expect(verdictOf(summarize(results))).toBe(verdict);
  });

  it('a run without checks is not evaluated, unless it was aborted', () => {
    expect(verdictOf(summarize([]))).toBe('not-evaluated');
    expect(verdictOf(summarize([]), true)).toBe('not-certified');
  });

  it('an aborted run is never certified', () => {
    expect(verdictOf(summarize([result('MUST', 'passed')]), true)).toBe('not-certified');
  });

  it('counts by status and by level', () => {
    const summary = summarize([result('MUST', 'passed'), result('MUST', 'failed'), result('SHOULD', 'skipped'), result('PROFILE', 'error')]);
    expect(summary).toMatchObject({ passed: 1, failed: 1, skipped: 1, errors: 1 });
    expect(summary.byLevel.MUST).toEqual({ passed: 1, failed: 1, skipped: 0, errors: 0 });
    expect(summary.byLevel.PROFILE).toEqual({ passed: 0, failed: 0, skipped: 0, errors: 1 });
  });
});
