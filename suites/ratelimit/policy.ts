/**
 * The policy the rate-limit headers announce against the one the probe observes
 * (draft-ietf-httpapi-ratelimit-headers-09 §3: q is the quota, w the window it applies to).
 */
import { defineCheck, fail, skip } from '../../src/conformance/check.ts';
import type { CheckContext } from '../../src/conformance/context.ts';
import { requiresCredential } from '../../src/conformance/preconditions.ts';
import { CLAIM_TOLERANCE, deviation, type ProbeResult } from '../../src/ratelimit/probe/index.ts';
import { describeObservation, suiteProbe } from './probe.ts';

/** The probe result, or a skip when there is no claim or no observation to compare. */
async function claimAndObservation(ctx: CheckContext, what: 'quota' | 'windowS'): Promise<{ claimed: number; observed: number; result: ProbeResult }> {
  if (ctx.config.api.rateLimitHeaders === 'none' && !ctx.config.api.rateLimitPolicy) {
    skip('the config says the target sends no rate-limit headers (api.rateLimitHeaders: none) and states no api.rateLimitPolicy');
  }
  const result = await suiteProbe(ctx);
  const claimed = result.claimed[what];
  const name = what === 'quota' ? 'quota' : 'window';
  if (claimed === undefined) skip(`the rate-limit headers (${result.claimed.headerStyle}) claim no ${name}, and api.rateLimitPolicy is not set`);
  if (!result.estimate.limited) {
    // No 429 measured the limit, but more was admitted than any policy of the claimed quota per window admits:
    // the claim is wrong. (With 429s, the estimate compares quota and window one by one, more precisely.)
    if (result.contradiction && what === 'quota') contradicted(result);
    skip(`the probe saw no 429 (${result.noLimitNote}), so it measured no ${name}`
      + (result.contradiction ? '; ratelimit.policy.claimed-quota-matches reports that the admissions contradict the claim' : '; ratelimit.burst.exceeding-quota-gets-429 reports that'));
  }
  const observed = result.estimate[what];
  if (observed === undefined || (what === 'windowS' && result.estimate.algorithm === 'unknown')) {
    skip(`the probe could not establish the ${name} within its budget (${result.requests} requests in ${result.elapsedS} s, stopped: ${result.stoppedBy})`);
  }
  return { claimed, observed, result };
}

function contradicted(result: ProbeResult): never {
  const c = result.contradiction!;
  const source = result.claimed.source === 'config' ? 'api.rateLimitPolicy' : `the ${result.claimed.headerStyle} headers`;
  fail(`the claimed policy (${c.claimedQuota} per ${c.claimedWindowS} s, from ${source}) DIFFERS from what the target admitted: ${c.detail}`, {
    claimedQuota: c.claimedQuota,
    claimedWindowS: c.claimedWindowS,
    admitted: c.admitted,
    withinSeconds: c.spanS,
    mostAClaimedPolicyAdmits: c.bound,
    throttled: result.estimate.limited,
    policyHeader: result.claimed.raw ?? null,
  });
}

export const claimedQuotaMatches = requiresCredential('apiKey')(
  defineCheck({
    id: 'ratelimit.policy.claimed-quota-matches',
    suite: 'ratelimit',
    title: 'The quota the rate-limit headers announce is within ±10 % of the quota the target enforces',
    level: 'SHOULD',
    specRef: 'draft-ietf-httpapi-ratelimit-headers-09 §3 (q: the quota allocated by the policy)',
    clauses: ['§8.1'],
    async run(ctx) {
      const { claimed, observed, result } = await claimAndObservation(ctx, 'quota');
      const off = deviation(claimed, observed);
      if (Math.abs(off) > CLAIM_TOLERANCE) {
        fail(`expected the announced quota (${claimed}) within ±${CLAIM_TOLERANCE * 100}% of the enforced one, got ${observed} enforced `
          + `(${off > 0 ? 'overstated' : 'understated'} by ${Math.abs(Math.round(off * 100))}%; observed ${describeObservation(result)})`, {
          claimedQuota: claimed,
          observedQuota: observed,
          algorithm: result.estimate.algorithm,
          reasons: result.estimate.reasons,
          policyHeader: result.claimed.raw ?? null,
        });
      }
    },
  }),
);

export const claimedWindowMatches = requiresCredential('apiKey')(
  defineCheck({
    id: 'ratelimit.policy.claimed-window-matches',
    suite: 'ratelimit',
    title: 'The window the rate-limit headers announce is within ±10 % of the window the target enforces (for a token bucket: quota / refill rate)',
    level: 'SHOULD',
    specRef: 'draft-ietf-httpapi-ratelimit-headers-09 §3 (w: the time window of the quota, in seconds)',
    clauses: ['§8.1'],
    async run(ctx) {
      const { claimed, observed, result } = await claimAndObservation(ctx, 'windowS');
      const off = deviation(claimed, observed);
      if (Math.abs(off) > CLAIM_TOLERANCE) {
        fail(`expected the announced window (${claimed} s) within ±${CLAIM_TOLERANCE * 100}% of the enforced one, got ${observed} s enforced `
          + `(observed ${describeObservation(result)})`, {
          claimedWindowS: claimed,
          observedWindowS: observed,
          algorithm: result.estimate.algorithm,
          reasons: result.estimate.reasons,
          policyHeader: result.claimed.raw ?? null,
        });
      }
    },
  }),
);
