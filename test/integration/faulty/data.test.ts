/**
 * Faulty targets that break one data rule each (paging, filters, schemas, campaigns, idempotency): exactly the named
 * checks fail, at the verdict their level implies, and no report leaks a secret.
 */
import { DATA_FAULTS } from '../../targets/faults/data.ts';
import { describeFaultCases } from './run-fault-cases.ts';

describeFaultCases('data', DATA_FAULTS);
