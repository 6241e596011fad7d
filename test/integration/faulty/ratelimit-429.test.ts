/**
 * Faulty targets whose 429 answers break a rule (no limit at all, no Retry-After, a Retry-After that lies, keys
 * sharing one bucket): the cases of errors.ts that run the ratelimit suite. Exactly the named checks fail, at the
 * verdict their level implies, and no report leaks a secret.
 */
import { ERROR_FAULTS } from '../../targets/faults/errors.ts';
import { describeFaultCases } from './run-fault-cases.ts';

describeFaultCases('ratelimit (429 answers)', ERROR_FAULTS.filter((c) => c.suites.includes('ratelimit')));
