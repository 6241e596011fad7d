/** The schemas suite. */
import type { Suite } from '../../src/conformance/registry.ts';

export const schemasSuite: Suite = {
  name: 'schemas',
  title: 'Schemas: every resource validated with AJV',
  checks: [],
};
