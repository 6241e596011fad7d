/** The per-level counts line shared by the console verdict line, report.html's banner and junit.xml. */
import type { Summary } from '../conformance/result.ts';

/**
 * "MUST 18 passed, 10 not run; SHOULD 30 passed; PROFILE 87 passed, 2 failed": every level says what did not run
 * or passed vacuously, so a partial run never reads as a full certification.
 */
export function levelCounts(s: Summary): string {
  return (['MUST', 'SHOULD', 'PROFILE'] as const)
    .map((level) => {
      const c = s.byLevel[level];
      const parts = [`${c.passed - c.vacuous} passed`];
      if (c.vacuous) parts.push(`${c.vacuous} vacuous`);
      if (c.failed) parts.push(`${c.failed} failed`);
      // "errored": the check could not run (a harness or transport problem); "could not decide": it ran, but the
      // run's measured conditions made its time-dependent answer unknowable (status undecided). Counted apart.
      if (c.errors) parts.push(`${c.errors} errored`);
      if (c.undecided) parts.push(`${c.undecided} could not decide`);
      if (c.skipped) parts.push(`${c.skipped} not run`);
      if (c.notApplicable) parts.push(`${c.notApplicable} not applicable`);
      return `${level} ${parts.join(', ')}`;
    })
    .join('; ');
}
