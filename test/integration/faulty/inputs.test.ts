/**
 * Faulty targets whose send takes input it must reject: exactly the named inputs checks fail, at the verdict their
 * level implies, and no report leaks a secret.
 */
import { INPUT_FAULTS } from '../../targets/faults/inputs.ts';
import { describeFaultCases } from './run-fault-cases.ts';

describeFaultCases('inputs', INPUT_FAULTS);
