/** The email suite. */
import type { Suite } from '../../src/conformance/registry.ts';

export const emailSuite: Suite = {
  name: 'email',
  title: 'Email campaigns',
  checks: [],
};
