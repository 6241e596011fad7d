/** What a response's rate-limit headers claim the policy is, in report.json's vocabulary. */
import type { RateLimitHeaderStyle } from '../../config/types.ts';
import { parsePolicyHeader, readRateLimit } from '../headers.ts';
import type { ClaimedPolicy } from './types.ts';

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
