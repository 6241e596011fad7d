/** Writes reports/<run-id>/report.json when the run finishes, then logs where it went. */
import type { SecretRegistry } from '../http/redact.ts';
import { redactStrings } from '../report/redact-report.ts';
import { ReportFileReporter } from './report-file-reporter.ts';
import type { Report } from '../report/report.ts';

export class JsonReporter extends ReportFileReporter {
  constructor(secrets: SecretRegistry, log: (line: string) => void) {
    super('json', 'report.json', reportJson, secrets, log);
  }
}

/** Last net: every secret known by the end of the run is scrubbed from every string, then from the text. */
export function reportJson(report: Report, secrets: SecretRegistry): string {
  return `${secrets.redactText(JSON.stringify(redactStrings(report, secrets), null, 2))}\n`;
}
