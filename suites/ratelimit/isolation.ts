/** One credential's exhaustion never throttles another (PROFILE Rate limits: limits are per credential). */
import { defineCheck } from '../../src/conformance/check.ts';
import { fail, skip } from '../../src/conformance/outcomes.ts';
import { guarded, requiresCredential, requiresProfile } from '../../src/conformance/preconditions.ts';
import type { HttpResponse } from '../../src/http/client.ts';
import { burstUntil429, describeBurst, leaveApiKeyThrottled, MAX_BURST, probe } from '../lib/rate-limit-burst.ts';

/** A fixed window may turn over between the requests; then the observation proves nothing and is repeated. */
const ATTEMPTS = 3;

export const secondKeyUnaffected = guarded(
  defineCheck({
    id: 'ratelimit.isolation.second-key-unaffected',
    suite: 'ratelimit',
    title: 'While the API key is throttled, another key (credentials.secondKey) is still served',
    level: 'PROFILE',
    specRef: 'PROFILE Rate limits ("One credential\'s exhaustion never throttles another credential")',
    clauses: ['§8.1'],
    owasp: ['API4:2023'],
    exhausts: ['apiKey'],
    async run(ctx) {
      const key = ctx.credentials.apiKey!;
      const second = ctx.credentials.secondKey!;
      let last: HttpResponse | undefined;
      try {
        for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
          const burst = await burstUntil429(ctx, key);
          if (burst.quotaTooLarge) skip(`the target announces a quota of ${burst.reading.quota}, more than the ${MAX_BURST} requests a burst may send`);
          if (!burst.throttled) skip(`no 429 came for the API key (${describeBurst(burst)}); ratelimit.burst.exceeding-quota-gets-429 reports that`);
          last = burst.throttled;
          const other = await probe(ctx, second);
          if (other.status === 429) {
            fail('expected credentials.secondKey to be served while credentials.apiKey is throttled, got 429 for it too', {
              expected: 'not 429 for secondKey',
              actual: 429,
            });
          }
          const still = await probe(ctx, key);
          if (still.status === 429) {
            last = still;
            return;
          }
          last = undefined; // the API key's window turned over: it is not throttled any more; try again
        }
        skip(`the API key's quota kept recovering between requests in ${ATTEMPTS} attempts; isolation could not be observed`);
      } finally {
        // Left to recover before the next check that needs the key served (src/conformance/recoveries.ts).
        if (last) leaveApiKeyThrottled(ctx, 'ratelimit.isolation.second-key-unaffected');
      }
    },
  }),
  requiresCredential('apiKey'),
  requiresCredential('secondKey'),
  requiresProfile('rateLimitIsolation'),
);
