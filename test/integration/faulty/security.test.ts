/**
 * Faulty targets that break one security rule each (webhook URLs at internal addresses, mass assignment, exposed
 * secrets, stack traces, CORS, nosniff): exactly the named checks fail, at the verdict their level implies, and no
 * report leaks a secret.
 */
import { SECURITY_FAULTS } from '../../targets/faults/security.ts';
import { describeFaultCases } from './run-fault-cases.ts';

describeFaultCases('security', SECURITY_FAULTS);
