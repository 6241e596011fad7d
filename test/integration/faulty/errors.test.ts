/**
 * Faulty targets that break one rule of error answers each (HEAD, validation detail, malformed JSON, Allow, media
 * type): exactly the named checks fail, at the verdict their level implies, and no report leaks a secret. The cases
 * of errors.ts that run the ratelimit suite are ratelimit-429.test.ts.
 */
import { ERROR_FAULTS } from '../../targets/faults/errors.ts';
import { describeFaultCases } from './run-fault-cases.ts';

describeFaultCases('errors', ERROR_FAULTS.filter((c) => !c.suites.includes('ratelimit')));
