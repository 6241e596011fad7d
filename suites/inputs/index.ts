/** The inputs suite. */
import type { Suite } from '../../src/conformance/registry.ts';

export const inputsSuite: Suite = {
  name: 'inputs',
  title: 'Generated invalid and valid request bodies',
  checks: [],
};
