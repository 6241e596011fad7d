/** The idempotency suite: Idempotency-Key on the send operation (PROFILE Messages). */
import type { Suite } from '../../src/conformance/registry.ts';
import { differentKeys, sameKeyOtherBody, sameKeySameBody } from './replay.ts';

export const idempotencySuite: Suite = {
  name: 'idempotency',
  title: 'Idempotency-Key',
  checks: [sameKeySameBody, sameKeyOtherBody, differentKeys],
};
