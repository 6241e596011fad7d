/**
 * Writes reports/<run-id>/junit.xml when the run finishes, then logs where it went (format: junit/build.ts).
 * SHOULD / PROFILE / probe findings are `<skipped>` warnings unless the `warningsAsFailures` option makes them
 * failures: a CI job that wants every warning red asks for it on the command line, which hands the option down.
 */
import type { SecretRegistry } from '../http/redact.ts';
import { buildJunit } from './junit/build.ts';
import type { JunitOptions } from './junit/cases.ts';
import { ReportFileReporter } from './report-file-reporter.ts';

export class JunitReporter extends ReportFileReporter {
  constructor(secrets: SecretRegistry, log: (line: string) => void, options: JunitOptions = {}) {
    const warningsAsFailures = options.warningsAsFailures === true;
    super('junit', 'junit.xml', (report, s) => buildJunit(report, s, { warningsAsFailures }), secrets, log);
  }
}
