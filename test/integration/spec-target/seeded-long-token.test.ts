/**
 * The spec-only target whose tokens live 24 h, a legal oddity and no fault: with the deployment's signing key shared
 * it is certified. The deployment that does not share it is seeded-long-token-unshared.test.ts (a file of its own,
 * so that the two whole runs can go side by side).
 */
import { describe, expect } from 'vitest';
import { brokenOf, explain, itOnVariant, quick } from './run-spec-target.ts';

describe('spec-only target, legal oddity: tokens that live 24 h', () => {
  itOnVariant('certified when the deployment shares its signing key', quick({ variant: 'long-token' }), (outcome) => {
    expect(brokenOf(outcome), explain(outcome)).toEqual([]);
    // Under load a SHOULD/PROFILE time judgement may say "could not decide" (as in cli/run.test.ts); a MUST one never.
    expect(outcome.report.summary.byLevel.MUST.undecided, explain(outcome)).toBe(0);
    expect(outcome.report.verdict, explain(outcome)).toBe((outcome.report.summary.undecided ?? 0) > 0 ? 'certified-with-warnings' : 'certified');
  });
});
