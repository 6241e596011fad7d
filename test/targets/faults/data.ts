/** Faulty targets for the data checks (filled in with the suites). */
import type { FaultCase } from '../fault-case.ts';

export const DATA_FAULTS: FaultCase[] = [];
