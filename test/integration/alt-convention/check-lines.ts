/**
 * How the alt-convention tests read a finished run: the checks that failed or errored, one line per check, so a
 * failing assertion shows the cause without opening report.json.
 */
import type { CheckResult } from '../../../src/conformance/result.ts';
import type { JobOutcome } from '../../../src/job/run-job.ts';

export function notPassed(outcome: JobOutcome): CheckResult[] {
  return outcome.report.checks.filter((c) => c.status === 'failed' || c.status === 'error');
}

/** One line per check, so a failing assertion shows the cause without opening report.json. */
export function lineOf(c: CheckResult): string {
  return `${c.status} ${c.level} ${c.id}: ${c.message ?? ''}`;
}

export function describeChecks(checks: readonly CheckResult[]): string {
  return checks.map((c) => `  ${lineOf(c)}`).join('\n') || '  (none)';
}
