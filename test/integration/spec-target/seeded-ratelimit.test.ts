/**
 * The spec-only target's rate-limit variants: a target that never throttles while claiming 60 per 60 s, and one
 * whose Retry-After lies (always 1 s, the window is 9 s). Each fault is reported once, at its level; a lying
 * Retry-After never fails checks about other rules.
 */
import { describe, expect, it } from 'vitest';
import { NEVER_THROTTLE_CLAIM } from '../../targets/spec-target/index.ts';
import { brokenOf, explain, RUN_TIMEOUT_MS, runSpecTarget } from './run-spec-target.ts';

const LYING_POLICY = { quota: 120, windowSeconds: 9 };

describe('spec-only target, seeded rate-limit faults', () => {
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

  it(
    'a Retry-After that lies is reported by the Retry-After check alone; every other check passes',
    async () => {
      // The window stays 9 s (a Retry-After of 1 s is far from the truth); 120 per window instead of the variant's
      // 40 lets the other suites' requests through three times faster, and the config states the pair.
      const { outcome } = await runSpecTarget({ variant: 'lying-retry-after', rateLimit: LYING_POLICY, overrides: { api: { rateLimitPolicy: { ...LYING_POLICY } } } });
      expect(brokenOf(outcome), explain(outcome)).toEqual(['SHOULD ratelimit.retry-after.honest']);
      expect(outcome.report.summary.byLevel.MUST.skipped + outcome.report.summary.byLevel.MUST.errors, explain(outcome)).toBe(0);
      expect(outcome.report.verdict).toBe('certified-with-warnings');
      expect(outcome.exitCode).toBe(0);
    },
    RUN_TIMEOUT_MS,
  );
});
