/**
 * A faulty target as test data: the fault, the suites to run against it, and exactly which checks must fail
 * and what verdict follows. test/integration/faulty/*.test.ts run every case, one file per area.
 */
import type { Verdict } from '../../src/conformance/result.ts';
import type { Fault } from './faulty-proxy.ts';

export interface FaultCase {
  /** What is broken, e.g. "an expired JWT is accepted". */
  name: string;
  fault: Fault;
  /** Suites to run against it (keep it to the ones that matter: every case runs in CI). */
  suites: string[];
  /** The check ids that must fail (status failed or error) — exactly these, no more, no fewer. */
  failing: string[];
  verdict: Verdict;
  /** When given: exactly the check ids that must pass vacuously (a pass without the evidence behind it). */
  vacuous?: string[];
  /** Extra config, as in harness.config.yaml. */
  config?: Record<string, any>;
}
