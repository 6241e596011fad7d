/** Writes reports/<run-id>/junit.xml when the run finishes, then logs where it went (format: junit/build.ts). */
import type { SecretRegistry } from '../http/redact.ts';
import { buildJunit } from './junit/build.ts';
import { ReportFileReporter } from './report-file-reporter.ts';

export class JunitReporter extends ReportFileReporter {
  constructor(secrets: SecretRegistry, log: (line: string) => void) {
    super('junit', 'junit.xml', buildJunit, secrets, log);
  }
}
