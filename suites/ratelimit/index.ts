/**
 * The ratelimit suite (basic level; `harness probe ratelimit` goes deeper). Header checks come first, while the
 * API key's bucket is fresh; every check that exhausts the key lets it recover before it ends.
 */
import type { Suite } from '../../src/conformance/registry.ts';
import { headersOnSuccess, remainingDecreases } from './headers.ts';
import { secondKeyUnaffected } from './isolation.ts';
import { burstGets429, retryAfterHonest, retryAfterPresent } from './throttling.ts';

export const ratelimitSuite: Suite = {
  name: 'ratelimit',
  title: 'Rate limits: 429, Retry-After, isolation',
  checks: [headersOnSuccess, remainingDecreases, burstGets429, retryAfterPresent, retryAfterHonest, secondKeyUnaffected],
};
