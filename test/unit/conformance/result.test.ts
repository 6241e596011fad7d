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
    [[result('MUST', 'skipped'), result('SHOULD', 'passed')], 'incomplete'],
    [[result('MUST', 'skipped'), result('SHOULD', 'failed')], 'incomplete'],
    [[result('MUST', 'failed'), result('SHOULD', 'passed')], 'not-certified'],
    [[result('MUST', 'failed'), result('MUST', 'skipped')], 'not-certified'],
    [[result('MUST', 'error')], 'incomplete'],
    [[{ ...result('MUST', 'passed'), vacuous: 'no 429 came' }], 'incomplete'],
    [[result('MUST', 'passed'), { ...result('PROFILE', 'passed'), vacuous: 'nothing delivered' }], 'certified'],
    [[result('SHOULD', 'skipped'), result('MUST', 'passed')], 'certified'],
    // Could not decide under the run's conditions: a MUST one is a rule not verified, a SHOULD/PROFILE one a warning.
    [[result('MUST', 'undecided'), result('SHOULD', 'passed')], 'incomplete'],
    [[result('MUST', 'passed'), result('SHOULD', 'undecided')], 'certified-with-warnings'],
    [[result('MUST', 'passed'), result('PROFILE', 'undecided')], 'certified-with-warnings'],
    [[result('MUST', 'undecided'), result('MUST', 'failed')], 'not-certified'],
  ] as const)('%#: follows the levels', (results, verdict) => {
    expect(verdictOf(summarize(results))).toBe(verdict);
  });

  it('a run without checks is not evaluated, unless it was aborted', () => {
    expect(verdictOf(summarize([]))).toBe('not-evaluated');
    expect(verdictOf(summarize([]), true)).toBe('incomplete');
  });

  it('a run that stopped early is incomplete, never certified and never not-certified by itself', () => {
    expect(verdictOf(summarize([result('MUST', 'passed')]), true)).toBe('incomplete');
    expect(verdictOf(summarize([result('MUST', 'failed')]), true)).toBe('not-certified');
  });

  it('counts vacuous passes as a subset of passed', () => {
    const summary = summarize([{ ...result('MUST', 'passed'), vacuous: 'x' }, result('MUST', 'passed')]);
    expect(summary.byLevel.MUST).toEqual({ passed: 2, failed: 0, skipped: 0, errors: 0, undecided: 0, vacuous: 1 });
  });

  it('counts by status and by level', () => {
    const summary = summarize([result('MUST', 'passed'), result('MUST', 'failed'), result('SHOULD', 'skipped'), result('PROFILE', 'error')]);
    expect(summary).toMatchObject({ passed: 1, failed: 1, skipped: 1, errors: 1 });
    expect(summary.byLevel.MUST).toEqual({ passed: 1, failed: 1, skipped: 0, errors: 0, undecided: 0, vacuous: 0 });
    expect(summary.byLevel.PROFILE).toEqual({ passed: 0, failed: 0, skipped: 0, errors: 1, undecided: 0, vacuous: 0 });
  });

  it('counts undecided apart: never a pass, never a failure, never an error', () => {
    const summary = summarize([result('MUST', 'undecided'), result('PROFILE', 'undecided'), result('PROFILE', 'passed')]);
    expect(summary).toMatchObject({ passed: 1, failed: 0, skipped: 0, errors: 0, undecided: 2 });
    expect(summary.byLevel.MUST).toEqual({ passed: 0, failed: 0, skipped: 0, errors: 0, undecided: 1, vacuous: 0 });
    expect(verdictOf(summarize([result('PROFILE', 'undecided')]))).toBe('certified-with-warnings');
  });
});
