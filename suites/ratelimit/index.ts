/**
 * The ratelimit suite. Header checks come first, while the API key's bucket is fresh; then the checks built on
 * one bounded run of the rate-limit probe (probe.ts: claimed vs observed policy, remaining per request); then
 * the burst checks. Every check that exhausts a bucket lets it recover before it ends.
 */
import type { Suite } from '../../src/conformance/registry.ts';
import { anonymousLimited } from './anonymous.ts';
import { headersOnSuccess, remainingDecreases } from './headers.ts';
import { secondKeyUnaffected } from './isolation.ts';
import { claimedQuotaMatches, claimedWindowMatches } from './policy.ts';
import { remainingByOne } from './remaining.ts';
import { burstGets429, retryAfterHonest, retryAfterPresent } from './throttling.ts';

export const ratelimitSuite: Suite = {
  name: 'ratelimit',
  title: 'Rate limits: 429, Retry-After, isolation',
  checks: [
    headersOnSuccess,
    remainingDecreases,
    claimedQuotaMatches,
    claimedWindowMatches,
    remainingByOne,
    burstGets429,
    retryAfterPresent,
    retryAfterHonest,
    secondKeyUnaffected,
    anonymousLimited,
  ],
};
