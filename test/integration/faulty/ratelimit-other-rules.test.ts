/**
 * The cases of ratelimit.ts that run other suites than ratelimit: a Retry-After that lies must not fail checks about
 * other rules. Exactly the named checks fail, at the verdict their level implies, and no report leaks a secret.
 */
import { RATELIMIT_FAULTS } from '../../targets/faults/ratelimit.ts';
import { describeFaultCases } from './run-fault-cases.ts';

describeFaultCases('ratelimit (other rules under a lying Retry-After)', RATELIMIT_FAULTS.filter((c) => !c.suites.includes('ratelimit')));
