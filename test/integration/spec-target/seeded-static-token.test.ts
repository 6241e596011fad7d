/**
 * The spec-only target whose login issues a token that expired before it was issued: the MUST check about issuing
 * it fails at its level, and the checks that need a JWT say the true reason instead of a false one.
 */
import { describe, expect } from 'vitest';
import { expectNotCertified, itOnVariant, quick } from './run-spec-target.ts';

describe('spec-only target, seeded login fault: static-token', () => {
  itOnVariant(
    'a login that issues an already expired token fails the MUST check about issuing it (no false skip reason)',
    quick({ variant: 'static-token' }),
    (outcome) => {
      expectNotCertified(outcome, ['MUST auth.jwt.usable-at-issue', 'PROFILE auth.jwt.expires-in-seconds', 'PROFILE auth.jwt.profile-claims']);
      expect(outcome.exitCode).toBe(1);
      // The checks that need a JWT say the true reason, pointing at the check that reports it.
      const skipped = outcome.report.checks.filter((c) => c.status === 'skipped' && /JWT/.test(c.message ?? ''));
      expect(skipped.length).toBeGreaterThan(5);
      for (const c of skipped) expect(c.message).toMatch(/already expired.*auth\.jwt\.usable-at-issue reports it/);
    },
  );
});
