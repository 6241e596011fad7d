/** What a response's rate-limit headers claim the policy is, in report.json's vocabulary. */
import type { RateLimitHeaderStyle } from '../../config/types.ts';
import { parsePolicyHeader, readRateLimit } from '../headers.ts';
import { primarySamples } from './runs.ts';
import type { ClaimContradiction, ClaimedPolicy, Sample } from './types.ts';

const RAW_HEADER: Record<string, string> = {
  'ietf-draft-09': 'ratelimit-policy',
  'ietf-draft-06': 'ratelimit-limit',
  'x-ratelimit': 'x-ratelimit-limit',
};

export function claimedPolicy(headers: Record<string, string>, style: RateLimitHeaderStyle, nowMs: number): ClaimedPolicy {
  const reading = readRateLimit(headers, style, nowMs);
  const headerStyle = reading.style === 'none' ? 'none' : reading.style === 'x-ratelimit' ? 'x-ratelimit' : 'ietf';
  const rawName = RAW_HEADER[reading.style];
  const raw = rawName ? lookup(headers, rawName) : undefined;
  // qu (draft-09): what the quota counts; absent means requests.
  const quotaUnit = reading.style === 'ietf-draft-09' && raw !== undefined ? parsePolicyHeader(raw, []).find((p) => p.quotaUnit !== undefined)?.quotaUnit : undefined;
  return {
    headerStyle,
    ...(quotaUnit !== undefined ? { quotaUnit } : {}),
    ...(reading.quota !== undefined ? { quota: reading.quota } : {}),
    ...(reading.windowS !== undefined ? { windowS: reading.windowS } : {}),
    ...(raw !== undefined ? { raw } : {}),
    findings: reading.findings,
  };
}

/** Relative difference of a claim from an observation: 0.1 = the claim is 10 % above it. */
export function deviation(claimed: number, observed: number): number {
  return observed === 0 ? (claimed === 0 ? 0 : Infinity) : (claimed - observed) / observed;
}

function lookup(headers: Record<string, string>, lower: string): string | undefined {
  if (headers[lower] !== undefined) return headers[lower];
  for (const [name, value] of Object.entries(headers)) if (name.toLowerCase() === lower) return value;
  return undefined;
}

/** The headers' claim, completed from the config (api.rateLimitPolicy) where the headers state no quota or window. */
export function withConfiguredPolicy(claimed: ClaimedPolicy, policy: { quota: number; windowS: number } | undefined): ClaimedPolicy {
  if (!policy || (claimed.quota !== undefined && claimed.windowS !== undefined)) return { ...claimed, source: 'headers' };
  // A quota the headers state wins; only the missing window (X-RateLimit-*) or the whole policy comes from the config.
  if (claimed.quota !== undefined && claimed.quota !== policy.quota) return { ...claimed, source: 'headers' };
  return { ...claimed, quota: policy.quota, windowS: policy.windowS, source: 'config' };
}

/**
 * Admissions a claimed policy of `quota` per `windowS` cannot explain. In any span of length s, a fixed window
 * admits at most quota × (⌈s / w⌉ + 1) (a boundary falls inside the span), a sliding window less, and a token
 * bucket of that size refilling quota per w the same; so more admitted requests than that within one span
 * contradict the claim whatever the algorithm. Spans start at each admitted request; the largest excess wins.
 */
export function contradiction(samples: readonly Sample[], claimed: ClaimedPolicy): ClaimContradiction | undefined {
  const { quota, windowS } = claimed;
  if (quota === undefined || windowS === undefined || windowS <= 0) return undefined;
  if (claimed.quotaUnit !== undefined && claimed.quotaUnit !== 'requests') return undefined;
  const times = primarySamples(samples).filter((s) => s.admitted).map((s) => s.t);
  const windowMs = windowS * 1000;
  const slackMs = Math.max(100, 0.1 * windowMs);
  let worst: { admitted: number; spanMs: number; bound: number } | undefined;
  for (let i = 0; i < times.length; i++) {
    for (let j = times.length - 1; j > i; j--) {
      const spanMs = times[j]! - times[i]!;
      const admitted = j - i + 1;
      // Send times are taken before each request leaves: a slack covers arrival jitter at the target.
      const bound = quota * (Math.max(1, Math.ceil((spanMs + slackMs) / windowMs)) + 1);
      if (admitted > bound && (!worst || admitted - bound > worst.admitted - worst.bound)) worst = { admitted, spanMs, bound };
    }
  }
  if (!worst) return undefined;
  const spanS = Math.round(worst.spanMs) / 1000;
  return {
    admitted: worst.admitted,
    spanS,
    bound: worst.bound,
    claimedQuota: quota,
    claimedWindowS: windowS,
    detail: `${worst.admitted} requests were admitted within ${spanS} s, more than a policy of ${quota} per ${windowS} s admits in that time `
      + `(at most ${worst.bound}, counting a window boundary or a full bucket plus its refill)`,
  };
}
