/**
 * RateLimit header fields of draft-ietf-httpapi-ratelimit-headers-09:
 *   RateLimit-Policy: "default";q=100;w=1
 *   RateLimit: "default";r=42;t=1
 * Both are Structured Field lists whose item is the policy name (a String, hence the quotes).
 */
import type { RateDecision, RatePolicy } from './types.ts';

export function policyHeader(policy: RatePolicy): string {
  // The draft's w is an integer; a fractional window is announced rounded up, which never overstates the quota.
  return `"${policy.name}";q=${policy.quota};w=${Math.max(1, Math.ceil(policy.windowSeconds))}`;
}

export function rateLimitHeader(decision: RateDecision): string {
  return `"${decision.policy.name}";r=${decision.remaining};t=${decision.resetSeconds}`;
}

export function rateLimitHeaders(decision: RateDecision): Record<string, string> {
  const headers: Record<string, string> = {
    'RateLimit-Policy': policyHeader(decision.policy),
    RateLimit: rateLimitHeader(decision),
  };
  if (!decision.allowed) headers['Retry-After'] = String(decision.retryAfterSeconds);
  return headers;
}
