/** Faulty targets for the errors checks (filled in with the suites). */
import type { FaultCase } from '../fault-case.ts';

export const ERROR_FAULTS: FaultCase[] = [];
