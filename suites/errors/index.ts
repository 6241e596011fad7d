/** The errors suite. */
import type { Suite } from '../../src/conformance/registry.ts';

export const errorsSuite: Suite = {
  name: 'errors',
  title: 'Error statuses and bodies: 401/403/429, 404, 405, 415, malformed JSON',
  checks: [],
};
