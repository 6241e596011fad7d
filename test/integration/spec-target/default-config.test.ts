/**
 * Negative control for correct.test.ts: the spec-only target under the harness's DEFAULT config (only its address
 * and credentials given). Its legal choices are not described, so they show up as PROFILE (and SHOULD) findings;
 * no MUST check may fail, since the target breaks no rule of SERVICE-SPEC.md.
 */
import { describe, expect, it } from 'vitest';
import { brokenOf, explain, RUN_TIMEOUT_MS, runSpecTargetWithDefaults } from './run-spec-target.ts';

describe('spec-only target under the DEFAULT config (negative control)', () => {
  it(
    'fails no MUST check when its choices are not described: only PROFILE (and SHOULD) checks fail',
    async () => {
      const { outcome } = await runSpecTargetWithDefaults();
      const broken = brokenOf(outcome);
      expect(broken.filter((line) => line.startsWith('MUST')), explain(outcome)).toEqual([]);
      expect(outcome.report.verdict).not.toBe('not-certified');
      // Its choices show up as PROFILE findings, which is what describing them in the config is for.
      expect(broken.filter((line) => line.startsWith('PROFILE')).length, explain(outcome)).toBeGreaterThanOrEqual(3);
    },
    RUN_TIMEOUT_MS,
  );
});
