/** Faulty targets for the auth checks (filled in with the suites). */
import type { FaultCase } from '../fault-case.ts';

export const AUTH_FAULTS: FaultCase[] = [];
