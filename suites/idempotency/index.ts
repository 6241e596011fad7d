/** The idempotency suite. */
import type { Suite } from '../../src/conformance/registry.ts';

export const idempotencySuite: Suite = {
  name: 'idempotency',
  title: 'Idempotency-Key',
  checks: [],
};
