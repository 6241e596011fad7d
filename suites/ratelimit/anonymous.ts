/**
 * Unauthenticated requests have a limit of their own, per client address (PROFILE Rate limits): a burst
 * without a credential is answered 429 in the end, and it spends nothing of a credential's quota.
 */
import { defineCheck } from '../../src/conformance/check.ts';
import { fail, skip, undecided } from '../../src/conformance/outcomes.ts';
import { guarded, requiresCredential, requiresProfile } from '../../src/conformance/preconditions.ts';
import { burstUntil429, describeBurst, ensureServed, MAX_BURST, probe, recover, undecisiveBurst } from '../lib/rate-limit-burst.ts';

export const anonymousLimited = guarded(
  defineCheck({
    id: 'ratelimit.anonymous.limited-per-address',
    suite: 'ratelimit',
    title: 'Unauthenticated requests are rate limited per client address, apart from any credential\'s quota',
    level: 'PROFILE',
    specRef: 'PROFILE Rate limits ("unauthenticated requests are limited per client address")',
    clauses: ['§8.1'],
    owasp: ['API4:2023'],
    async run(ctx) {
      // The key must be servable before the anonymous burst: a 429 for it afterwards then says the two share a
      // bucket, not that earlier checks spent the key's own quota.
      if (!(await ensureServed(ctx, ctx.credentials.apiKey!))) {
        skip(`credentials.apiKey was still throttled by its own earlier traffic after conformance.maxWaitSeconds (${ctx.config.conformance.maxWaitSeconds} s): whether unauthenticated traffic spends its quota could not be tested`);
      }
      const burst = await burstUntil429(ctx, undefined);
      if (burst.quotaTooLarge) skip(`the target announces a per-address quota of ${burst.reading.quota}, more than the ${MAX_BURST} requests a burst may send`);
      if (!burst.throttled) {
        const slow = undecisiveBurst(burst);
        if (slow) undecided(slow, { sent: burst.sent, elapsedMs: burst.elapsedMs, announcedQuota: burst.reading.quota, announcedWindowS: burst.reading.windowS, ...(burst.counts ? { counts: burst.counts } : {}), conditions: ctx.conditions.since(ctx.conditions.mark() - burst.elapsedMs) });
        fail(`expected unauthenticated requests to be answered 429 once the per-address limit is exceeded, but ${describeBurst(burst)} without one`, {
          expected: 429,
          actual: burst.statuses,
          sent: burst.sent,
          announcedQuota: burst.reading.quota ?? null,
        });
      }
      try {
        const keyed = await probe(ctx, ctx.credentials.apiKey!);
        if (keyed.status === 429) {
          fail('expected credentials.apiKey to be served while this client address is throttled for unauthenticated requests, got 429 for it too', {
            expected: 'not 429 for the API key',
            actual: 429,
          });
        }
      } finally {
        // Login and the token endpoint use the address bucket: later checks must find it recovered.
        await recover(ctx, undefined, burst.throttled);
      }
    },
  }),
  requiresCredential('apiKey'),
  requiresProfile('rateLimitIsolation'),
);
