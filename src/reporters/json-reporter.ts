/** Writes reports/<run-id>/report.json when the run finishes, then logs where it went. */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { HarnessEvent, Reporter } from '../events.ts';
import type { SecretRegistry } from '../http/redact.ts';
import { redactStrings } from './redact-report.ts';

export class JsonReporter implements Reporter {
  readonly name = 'json';

  constructor(
    private readonly secrets: SecretRegistry,
    private readonly log: (line: string) => void,
  ) {}

  async onEvent(event: HarnessEvent): Promise<void> {
    if (event.type !== 'run-finished') return;
    await mkdir(event.outDir, { recursive: true });
    const file = join(event.outDir, 'report.json');
    // Last net: every secret known by the end of the run is scrubbed from every string, then from the text.
    await writeFile(file, `${this.secrets.redactText(JSON.stringify(redactStrings(event.report, this.secrets), null, 2))}\n`);
    this.log(`report.json: ${file}`);
  }
}
