/**
 * Every built-in suite, in the order a run takes them. The order matters: rate-limit checks exhaust quotas,
 * so they run late; standing checks look at the traffic of every suite before them, so they run last.
 */
import { CheckRegistry, type Suite } from '../src/conformance/registry.ts';
import { authSuite } from './auth/index.ts';
import { emailSuite } from './email/index.ts';
import { errorsSuite } from './errors/index.ts';
import { idempotencySuite } from './idempotency/index.ts';
import { inputsSuite } from './inputs/index.ts';
import { ownershipSuite } from './ownership/index.ts';
import { paginationSuite } from './pagination/index.ts';
import { ratelimitSuite } from './ratelimit/index.ts';
import { schemasSuite } from './schemas/index.ts';
import { securitySuite } from './security/index.ts';
import { smokeSuite } from './smoke/index.ts';
import { standingSuite } from './standing/index.ts';
import { webhooksSuite } from './webhooks/index.ts';

export const BUILT_IN_SUITES: readonly Suite[] = [
  smokeSuite,
  authSuite,
  schemasSuite,
  paginationSuite,
  emailSuite,
  idempotencySuite,
  ownershipSuite,
  inputsSuite,
  errorsSuite,
  securitySuite,
  webhooksSuite,
  ratelimitSuite,
  standingSuite,
];

export function createDefaultRegistry(): CheckRegistry {
  const registry = new CheckRegistry();
  for (const suite of BUILT_IN_SUITES) registry.register(suite);
  return registry;
}
