/**
 * A reporter that turns the finished report into one file of reports/<run-id>/ and logs where it went. The
 * JSON, HTML and JUnit reporters differ only in the file name and how the report is rendered.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { HarnessEvent, Reporter } from '../report/events.ts';
import type { SecretRegistry } from '../http/redact.ts';
import type { Report } from '../report/report.ts';

/** Renders the whole file; it must redact with `secrets` itself, before any escaping could hide a secret. */
export type RenderReport = (report: Report, secrets: SecretRegistry) => string;

export class ReportFileReporter implements Reporter {
  constructor(
    readonly name: string,
    private readonly fileName: string,
    private readonly render: RenderReport,
    private readonly secrets: SecretRegistry,
    private readonly log: (line: string) => void,
  ) {}

  async onEvent(event: HarnessEvent): Promise<void> {
    if (event.type !== 'run-finished') return;
    await mkdir(event.outDir, { recursive: true });
    const file = join(event.outDir, this.fileName);
    await writeFile(file, this.render(event.report, this.secrets));
    this.log(`${this.fileName}: ${file}`);
  }
}
