/**
 * The policy the rate-limit headers announce against the one the probe observes
 * (draft-ietf-httpapi-ratelimit-headers-09 §3: q is the quota, w the window it applies to). The observation is an
 * interval, its width measured by the probe itself (src/ratelimit/probe/judge.ts: send times are right within the
 * requests' round trip, a recovery is noticed at the next watch request, a counting run must end within one window):
 * a claim within ±10 % of every value the interval allows matches, of none differs, of some is "could not decide".
 */
import { defineCheck } from '../../src/conformance/check.ts';
import { fail, skip, undecided } from '../../src/conformance/outcomes.ts';
import type { CheckContext } from '../../src/conformance/context.ts';
import { requiresCredential } from '../../src/conformance/preconditions.ts';
import { CLAIM_TOLERANCE, judgeClaim, observedQuota, observedWindow, type Observed, type ProbeResult } from '../../src/ratelimit/probe/index.ts';
import { describeObservation, suiteProbe } from './lib/probe.ts';

/** The claim and the observation as an interval; skipped when nothing is claimed, undecided when nothing was measured. */
async function claimAndObservation(ctx: CheckContext, what: 'quota' | 'windowS'): Promise<{ claimed: number; observed: Observed; result: ProbeResult }> {
  if (ctx.config.api.rateLimitHeaders === 'none' && !ctx.config.api.rateLimitPolicy) {
    skip('the config says the target sends no rate-limit headers (api.rateLimitHeaders: none) and states no api.rateLimitPolicy');
  }
  const result = await suiteProbe(ctx);
  const claimed = result.claimed[what];
  const name = what === 'quota' ? 'quota' : 'window';
  if (claimed === undefined) skip(`the rate-limit headers (${result.claimed.headerStyle}) claim no ${name}, and api.rateLimitPolicy is not set`);
  if (!result.estimate.limited) {
    // No 429 measured the limit, so neither quota nor window was measured: the probe's pace is what this run's
    // conditions allowed. Admissions beyond what the claimed pair admits contradict the pair — but a larger quota
    // and a shorter window explain them alike, so this check cannot say its own parameter is the wrong one.
    const c = result.contradiction;
    undecided(`the probe saw no 429 (${result.noLimitNote}), so it measured no ${name}`
      + (c
        ? `; the admissions contradict the claimed ${c.claimedQuota} per ${c.claimedWindowS} s (${c.detail}), but a larger quota and a shorter window explain that alike`
        : '; ratelimit.burst.exceeding-quota-gets-429 judges whether a limit exists')
      + `; ${describeTiming(result)}`, {
      claimed,
      ...(c ? { contradiction: c, policyHeader: result.claimed.raw ?? null } : {}),
      timing: result.timing,
    });
  }
  const observed = what === 'quota' ? observedQuota(result) : observedWindow(result);
  if (typeof observed === 'string') {
    // The probe ran and met the limit, but its trace does not measure this number: not a finding either way.
    undecided(`${observed}; timing: ${describeTiming(result)}`, { claimed, timing: result.timing, reasons: result.estimate.reasons, stoppedBy: result.stoppedBy });
  }
  return { claimed, observed, result };
}

function describeTiming(result: ProbeResult): string {
  const t = result.timing;
  return `send times ±${t.uncertaintyMs} ms (round trips p50 ${t.rttP50Ms ?? '?'} ms, p99 ${t.rttP99Ms ?? '?'} ms; send lag p99 ${t.lagP99Ms ?? '?'} ms, max ${t.lagMaxMs ?? '?'} ms)`;
}

/** "observed 100 (100 … 100: counted within one window …)": the observation as measured. */
function describeObserved(observed: Observed, unit: string): string {
  return observed.low === observed.high
    ? `${observed.value}${unit} (${observed.how})`
    : `${observed.value}${unit}, anywhere in ${observed.low} … ${observed.high}${unit} (${observed.how})`;
}

interface ClaimCheck {
  id: string;
  title: string;
  specRef: string;
  what: 'quota' | 'windowS';
  /** The names the claim and the observation carry in the result's details. */
  claimedKey: string;
  observedKey: string;
  /** The failure message for a claim outside the tolerance; `deviation` is signed (claimed over enforced). */
  differs(claimed: number, observed: Observed, deviation: number, result: ProbeResult): string;
}

/** One claimed-versus-observed check: the quota and the window are judged alike, each on its own number. */
function claimMatches(spec: ClaimCheck) {
  return requiresCredential('apiKey')(
    defineCheck({
      id: spec.id,
      suite: 'ratelimit',
      title: spec.title,
      level: 'SHOULD',
      specRef: spec.specRef,
      clauses: ['§8.1'],
      owasp: ['API4:2023'],
      async run(ctx) {
        const { claimed, observed, result } = await claimAndObservation(ctx, spec.what);
        const judged = judgeClaim(claimed, observed);
        const details = {
          [spec.claimedKey]: claimed,
          [spec.observedKey]: observed,
          algorithm: result.estimate.algorithm,
          reasons: result.estimate.reasons,
          timing: result.timing,
          policyHeader: result.claimed.raw ?? null,
        };
        if (judged.outcome === 'undecidable') undecided(`${judged.reason}; observed ${describeObservation(result)}; ${describeTiming(result)}`, details);
        if (judged.outcome === 'differs') fail(spec.differs(claimed, observed, judged.deviation, result), details);
      },
    }),
  );
}

export const claimedQuotaMatches = claimMatches({
  id: 'ratelimit.policy.claimed-quota-matches',
  title: 'The quota the rate-limit headers announce is within ±10 % of the quota the target enforces',
  specRef: 'draft-ietf-httpapi-ratelimit-headers-09 §3 (q: the quota allocated by the policy)',
  what: 'quota',
  claimedKey: 'claimedQuota',
  observedKey: 'observedQuota',
  differs: (claimed, observed, off, result) =>
    `expected the announced quota (${claimed}) within ±${CLAIM_TOLERANCE * 100}% of the enforced one, got ${describeObserved(observed, '')} enforced `
    + `(${off > 0 ? 'overstated' : 'understated'} by ${Math.abs(Math.round(off * 100))}%; observed ${describeObservation(result)})`,
});

export const claimedWindowMatches = claimMatches({
  id: 'ratelimit.policy.claimed-window-matches',
  title: 'The window the rate-limit headers announce is within ±10 % of the window the target enforces (for a token bucket: quota / refill rate)',
  specRef: 'draft-ietf-httpapi-ratelimit-headers-09 §3 (w: the time window of the quota, in seconds)',
  what: 'windowS',
  claimedKey: 'claimedWindowS',
  observedKey: 'observedWindowS',
  differs: (claimed, observed, _off, result) =>
    `expected the announced window (${claimed} s) within ±${CLAIM_TOLERANCE * 100}% of the enforced one, got ${describeObserved(observed, ' s')} enforced `
    + `(observed ${describeObservation(result)})`,
});
