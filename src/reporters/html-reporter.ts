/** Writes reports/<run-id>/report.html (self-contained, offline) when the run finishes, then logs where it went. */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { HarnessEvent, Reporter } from '../events.ts';
import type { SecretRegistry } from '../http/redact.ts';
import { renderPage } from './html/page.ts';
import { redactStrings } from './redact-report.ts';
import type { Report } from './report.ts';

export class HtmlReporter implements Reporter {
  readonly name = 'html';

  constructor(
    private readonly secrets: SecretRegistry,
    private readonly log: (line: string) => void,
  ) {}

  async onEvent(event: HarnessEvent): Promise<void> {
    if (event.type !== 'run-finished') return;
    await mkdir(event.outDir, { recursive: true });
    const file = join(event.outDir, 'report.html');
    await writeFile(file, reportHtml(event.report, this.secrets));
    this.log(`report.html: ${file}`);
  }
}

/** The page for one report. Redaction happens on the data before it is embedded (escaping would hide secrets from it). */
export function reportHtml(report: Report, secrets: SecretRegistry): string {
  const data = redactStrings(report, secrets);
  return secrets.redactText(renderPage({ kind: 'report', title: `Harness report ${data.run.id} — ${data.verdict}`, data }));
}
