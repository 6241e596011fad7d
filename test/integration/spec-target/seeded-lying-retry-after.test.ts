/**
 * The spec-only target's lying-retry-after variant: every 429 says Retry-After: 1 while the window is 9 s. The fault
 * is reported by the Retry-After check alone, at its level; a lying Retry-After never fails checks about other rules.
 */
import { describe, expect, it } from 'vitest';
import { brokenOf, explain, RUN_TIMEOUT_MS, runSpecTarget } from './run-spec-target.ts';

const LYING_POLICY = { quota: 120, windowSeconds: 9 };

describe('spec-only target, seeded rate-limit fault: lying-retry-after', () => {
  it(
    'a Retry-After that lies is reported by the Retry-After check alone; every other check passes',
    async () => {
      // The window stays 9 s (a Retry-After of 1 s is far from the truth); 120 per window instead of the variant's
      // 40 lets the other suites' requests through three times faster, and the config states the pair. Not more:
      // the check's burst must end well inside the window for the lie to show, and a loaded machine spread a burst
      // of 360 over most of it.
      const { outcome } = await runSpecTarget({ variant: 'lying-retry-after', rateLimit: LYING_POLICY, overrides: { api: { rateLimitPolicy: { ...LYING_POLICY } } } });
      expect(brokenOf(outcome), explain(outcome)).toEqual(['SHOULD ratelimit.retry-after.honest']);
      expect(outcome.report.summary.byLevel.MUST.skipped + outcome.report.summary.byLevel.MUST.errors, explain(outcome)).toBe(0);
      expect(outcome.report.verdict).toBe('certified-with-warnings');
      expect(outcome.exitCode).toBe(0);
    },
    RUN_TIMEOUT_MS,
  );
});
