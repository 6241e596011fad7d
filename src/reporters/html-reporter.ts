/** Writes reports/<run-id>/report.html (self-contained, offline) when the run finishes, then logs where it went. */
import type { SecretRegistry } from '../http/redact.ts';
import { headlineOf } from '../report/headline.ts';
import { renderPage } from './html/page.ts';
import { redactStrings } from '../report/redact-report.ts';
import { ReportFileReporter } from './report-file-reporter.ts';
import type { Report } from '../report/report.ts';

export class HtmlReporter extends ReportFileReporter {
  constructor(secrets: SecretRegistry, log: (line: string) => void) {
    super('html', 'report.html', reportHtml, secrets, log);
  }
}

/** The page for one report. Redaction happens on the data before it is embedded (escaping would hide secrets from it). */
export function reportHtml(report: Report, secrets: SecretRegistry): string {
  const data = redactStrings(report, secrets);
  // The headline is computed here, not in the browser, so the banner says exactly what the console and junit.xml say.
  const headline = headlineOf(data);
  return secrets.redactText(renderPage({ kind: 'report', title: `${headline.title} — harness report ${data.run.id}`, data: { report: data, headline } }));
}
