/**
 * Faulty targets whose rate-limit headers or claims misdescribe the policy, or that never throttle: the cases of
 * ratelimit.ts that run the ratelimit suite. Exactly the named checks fail, at the verdict their level implies, and
 * no report leaks a secret.
 */
import { RATELIMIT_FAULTS } from '../../targets/faults/ratelimit.ts';
import { describeFaultCases } from './run-fault-cases.ts';

describeFaultCases('ratelimit (policy and headers)', RATELIMIT_FAULTS.filter((c) => c.suites.includes('ratelimit')));
