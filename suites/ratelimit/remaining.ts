/**
 * Each request uses one unit of the quota (draft-ietf-httpapi-ratelimit-headers-09 §3: the quota unit is
 * "request" unless qu says otherwise), so the remaining quota r goes down by exactly one per admitted request —
 * unless the quota frees up in between (a window turns over, a bucket refills), which only raises it.
 * Read on the probe's first burst: consecutive admitted requests sent at full pace.
 */
import { defineCheck, fail, skip } from '../../src/conformance/check.ts';
import { requiresCredential } from '../../src/conformance/preconditions.ts';
import { suiteProbe } from './probe.ts';

export const remainingByOne = requiresCredential('apiKey')(
  defineCheck({
    id: 'ratelimit.headers.remaining-decrements-by-one',
    suite: 'ratelimit',
    title: 'The remaining quota goes down by exactly one per admitted request (never by more, and not standing still)',
    level: 'SHOULD',
    specRef: 'draft-ietf-httpapi-ratelimit-headers-09 §3 (quota units: requests unless qu says otherwise), §4 (r: remaining quota units)',
    clauses: ['§8.1'],
    async run(ctx) {
      if (ctx.config.api.rateLimitHeaders === 'none') skip('the config says the target sends no rate-limit headers (api.rateLimitHeaders: none)');
      const result = await suiteProbe(ctx);
      if (result.claimed.quotaUnit !== undefined && result.claimed.quotaUnit !== 'requests') {
        skip(`the policy counts "${result.claimed.quotaUnit}", not requests`);
      }
      const burst = result.samples.filter((s) => s.phase === 'burst' && s.credential === 'primary' && s.admitted);
      const pairs = burst.slice(1).map((s, i) => [burst[i]!.remaining, s.remaining] as const).filter((p): p is readonly [number, number] => p[0] !== undefined && p[1] !== undefined);
      if (pairs.length < 2) skip(`too few consecutive readings of the remaining quota (${pairs.length}) in the probe's first burst`);
      const steps = pairs.map(([a, b]) => b - a);
      const tooFar = steps.filter((d) => d < -1);
      const byOne = steps.filter((d) => d === -1).length;
      if (tooFar.length > 0 || byOne * 2 < steps.length) {
        const shown = pairs.slice(0, 8).map(([a, b]) => `${a} → ${b}`).join(', ');
        fail(tooFar.length > 0
          ? `expected the remaining quota to go down by one per request, got drops of ${[...new Set(tooFar.map((d) => -d))].join(', ')} (${shown} …)`
          : `expected the remaining quota to go down by one per request, but only ${byOne} of ${steps.length} consecutive requests lowered it by one (${shown} …)`, {
          expected: 'remaining(n+1) = remaining(n) − 1, or higher when the quota frees up',
          steps: steps.slice(0, 50),
          pairs: pairs.length,
        });
      }
    },
  }),
);
