/**
 * The headline's line about ownership across accounts (suites/ownership), for the console verdict, report.html's
 * banner and junit.xml alike: not applicable (a single-account target), not run (and which key to add), the
 * first MUST finding (what leaked), or that nothing did. Absent when no ownership check is in the report.
 */
import type { CheckResult } from '../conformance/result.ts';
import type { HeadlineLine } from './headline-line.ts';

export function ownershipLine(checks: readonly CheckResult[]): HeadlineLine | undefined {
  const own = checks.filter((c) => c.suite === 'ownership');
  if (own.length === 0) return undefined;
  const label = 'Ownership';
  const notApplicable = own.find((c) => c.notApplicable);
  if (notApplicable && own.every((c) => c.notApplicable)) return { label, text: notApplicable.message ?? 'not applicable', tone: 'neutral' };
  const failed = own.find((c) => c.status === 'failed' && c.level === 'MUST');
  if (failed) return { label, text: `${failed.message ?? 'failed'} (${failed.id})`, tone: 'fail' };
  const notRun = own.find((c) => c.level === 'MUST' && c.status === 'skipped' && !c.notApplicable);
  if (notRun) return { label, text: notRun.message ?? 'not run', tone: 'incomplete' };
  const verified = own.filter((c) => c.level === 'MUST' && c.status === 'passed' && c.vacuous === undefined).length;
  const mustChecks = own.filter((c) => c.level === 'MUST' && !c.notApplicable).length;
  const tone = verified === mustChecks ? 'pass' : 'incomplete';
  return { label, text: `another account's credential saw and changed nothing of the first account's: ${verified} of ${mustChecks} MUST checks verified`, tone };
}
