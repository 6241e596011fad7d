/**
 * The ratelimit suite. Header checks come first, while the API key's bucket is fresh; then the checks built on
 * one bounded run of the rate-limit probe (lib/probe.ts: claimed vs observed policy, remaining per request); then
 * the burst checks. A bucket a check exhausted has recovered before any check that needs it served: the probe's
 * is spent again by the burst checks that follow it; a burst check leaves the API key's to the runner, which lets
 * it recover before the next check that does not exhaust it itself (`exhausts`, src/conformance/recoveries.ts);
 * the anonymous check lets its own recover before it ends.
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
