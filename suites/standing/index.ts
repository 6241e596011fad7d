/** The standing suite. */
import type { Suite } from '../../src/conformance/registry.ts';

export const standingSuite: Suite = {
  name: 'standing',
  title: 'Standing checks over all traffic of the run',
  checks: [],
};
