/**
 * Faulty targets that break one webhook rule each (signatures, retries, ids, events, timestamps): exactly the named
 * checks fail, at the verdict their level implies, and no report leaks a secret.
 */
import { WEBHOOK_FAULTS } from '../../targets/faults/webhooks.ts';
import { describeFaultCases } from './run-fault-cases.ts';

describeFaultCases('webhooks', WEBHOOK_FAULTS);
