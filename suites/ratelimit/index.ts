/** The ratelimit suite. */
import type { Suite } from '../../src/conformance/registry.ts';

export const ratelimitSuite: Suite = {
  name: 'ratelimit',
  title: 'Rate limits: 429, Retry-After, isolation',
  checks: [],
};
