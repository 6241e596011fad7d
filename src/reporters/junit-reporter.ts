/**
 * Writes reports/<run-id>/junit.xml when the run finishes, then logs where it went (format: junit/build.ts).
 * SHOULD / PROFILE / probe findings are `<skipped>` warnings unless HARNESS_JUNIT_WARNINGS_AS_FAILURES=1 (or the
 * `warningsAsFailures` option) makes them failures: a CI job that wants every warning red sets it.
 */
import type { SecretRegistry } from '../http/redact.ts';
import { buildJunit } from './junit/build.ts';
import type { JunitOptions } from './junit/cases.ts';
import { ReportFileReporter } from './report-file-reporter.ts';

export const WARNINGS_AS_FAILURES_ENV = 'HARNESS_JUNIT_WARNINGS_AS_FAILURES';

export class JunitReporter extends ReportFileReporter {
  constructor(secrets: SecretRegistry, log: (line: string) => void, options: JunitOptions = {}) {
    const warningsAsFailures = options.warningsAsFailures ?? process.env[WARNINGS_AS_FAILURES_ENV] === '1';
    super('junit', 'junit.xml', (report, s) => buildJunit(report, s, { warningsAsFailures }), secrets, log);
  }
}
