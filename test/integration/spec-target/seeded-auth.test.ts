/**
 * The spec-only target with one seeded fault (or one legal oddity) each, around JWT login: every fault is caught
 * at the level its source gives, exactly, and the legal oddity is not a failure.
 */
import { describe, expect, it } from 'vitest';
import type { JobOutcome } from '../../../src/job/run-job.ts';
import { brokenOf, explain, itOnVariant, RUN_TIMEOUT_MS, runSpecTarget } from './run-spec-target.ts';

/** The run found exactly `broken` (level and id) and so is not certified. */
function expectNotCertified(outcome: JobOutcome, broken: string[]): void {
  expect(brokenOf(outcome), explain(outcome)).toEqual(broken);
  expect(outcome.report.verdict).toBe('not-certified');
}

describe('spec-only target, seeded faults around login', () => {
  itOnVariant(
    'a login that issues an already expired token fails the MUST check about issuing it (no false skip reason)',
    { variant: 'static-token' },
    (outcome) => {
      expectNotCertified(outcome, ['MUST auth.jwt.usable-at-issue', 'PROFILE auth.jwt.expires-in-seconds', 'PROFILE auth.jwt.profile-claims']);
      expect(outcome.exitCode).toBe(1);
      // The checks that need a JWT say the true reason, pointing at the check that reports it.
      const skipped = outcome.report.checks.filter((c) => c.status === 'skipped' && /JWT/.test(c.message ?? ''));
      expect(skipped.length).toBeGreaterThan(5);
      for (const c of skipped) expect(c.message).toMatch(/already expired.*auth\.jwt\.usable-at-issue reports it/);
    },
  );

  itOnVariant(
    'a login that hands a token to any password fails the MUST rule (§5 rules 2 and 5), not only the PROFILE 401',
    { variant: 'any-password' },
    (outcome) => {
      expectNotCertified(outcome, ['MUST auth.jwt.bad-login-no-token', 'PROFILE auth.jwt.bad-login-401', 'SHOULD auth.jwt.bad-login-no-enumeration']);
    },
  );

  it(
    'tokens that live 24 h: certified when the deployment shares its signing key; incomplete, saying why, when not',
    async () => {
      const shared = await runSpecTarget({ variant: 'long-token' });
      expect(brokenOf(shared.outcome), explain(shared.outcome)).toEqual([]);
      // Under load a SHOULD/PROFILE time judgement may say "could not decide" (as in cli/run.test.ts); a MUST one never.
      expect(shared.outcome.report.summary.byLevel.MUST.undecided, explain(shared.outcome)).toBe(0);
      expect(shared.outcome.report.verdict, explain(shared.outcome)).toBe((shared.outcome.report.summary.undecided ?? 0) > 0 ? 'certified-with-warnings' : 'certified');

      const unshared = await runSpecTarget({ variant: 'long-token', env: { SPEC_JWT_SIGNING_KEY: '' } });
      expect(brokenOf(unshared.outcome), explain(unshared.outcome)).toEqual([]);
      const mustNotRun = unshared.outcome.report.checks.filter((c) => c.level === 'MUST' && c.status === 'skipped' && !c.notApplicable);
      expect(mustNotRun.map((c) => c.id).sort()).toEqual(['auth.jwt.expired-rejected', 'auth.jwt.not-yet-valid-rejected']);
      for (const c of mustNotRun) expect(c.message).toMatch(/credentials\.jwtSigning/);
      expect(unshared.outcome.report.verdict).toBe('incomplete');
      expect(unshared.outcome.exitCode).toBe(4);
    },
    RUN_TIMEOUT_MS,
  );
});
