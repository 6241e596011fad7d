/** The auth suite. */
import type { Suite } from '../../src/conformance/registry.ts';

export const authSuite: Suite = {
  name: 'auth',
  title: 'Authentication: API keys, JWT login, OAuth2 authorization code',
  checks: [],
};
