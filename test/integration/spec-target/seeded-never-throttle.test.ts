/**
 * The spec-only target's never-throttle variant: it claims 60 per 60 s and never answers 429. The MUST 429 rule
 * fails and the contradicted claim is named, once, at its level.
 */
import { describe, expect, it } from 'vitest';
import { NEVER_THROTTLE_CLAIM } from '../../targets/spec-target/index.ts';
import { brokenOf, explain, RUN_TIMEOUT_MS, runSpecTarget } from './run-spec-target.ts';

describe('spec-only target, seeded rate-limit fault: never-throttle', () => {
  it(
    'never throttles while claiming 60 per 60 s: the MUST 429 rule fails and the contradicted claim is named',
    async () => {
      const { outcome } = await runSpecTarget({ variant: 'never-throttle', overrides: { api: { rateLimitPolicy: { ...NEVER_THROTTLE_CLAIM } } } });
      expect(brokenOf(outcome), explain(outcome)).toEqual([
        'MUST ratelimit.burst.exceeding-quota-gets-429',
        'PROFILE ratelimit.anonymous.limited-per-address',
        'SHOULD ratelimit.headers.remaining-decreases',
        'SHOULD ratelimit.headers.remaining-decrements-by-one',
      ]);
      // No 429 measured quota or window: the contradicted claim is named, but which half of it is wrong is not
      // measured, so the per-parameter check could not decide (README "Time-dependent judgements").
      const claim = outcome.report.checks.find((c) => c.id === 'ratelimit.policy.claimed-quota-matches')!;
      expect(claim.status).toBe('undecided');
      expect(claim.message).toMatch(/contradict the claimed 60 per 60 s/);
      expect(outcome.report.verdict).toBe('not-certified');
    },
    RUN_TIMEOUT_MS,
  );
});
