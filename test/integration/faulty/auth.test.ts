/**
 * Faulty targets that break one authentication rule each (API keys, JWT login, OAuth2), in front of a correct
 * reference target: exactly the named checks fail, at the verdict their level implies, and no report leaks a secret.
 */
import { AUTH_FAULTS } from '../../targets/faults/auth.ts';
import { describeFaultCases } from './run-fault-cases.ts';

describeFaultCases('auth', AUTH_FAULTS);
