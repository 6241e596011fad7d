/** Writes reports/<run-id>/junit.xml when the run finishes, then logs where it went (format: junit/build.ts). */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { HarnessEvent, Reporter } from '../events.ts';
import type { SecretRegistry } from '../http/redact.ts';
import { buildJunit } from './junit/build.ts';

export class JunitReporter implements Reporter {
  readonly name = 'junit';

  constructor(
    private readonly secrets: SecretRegistry,
    private readonly log: (line: string) => void,
  ) {}

  async onEvent(event: HarnessEvent): Promise<void> {
    if (event.type !== 'run-finished') return;
    await mkdir(event.outDir, { recursive: true });
    const file = join(event.outDir, 'junit.xml');
    await writeFile(file, buildJunit(event.report, this.secrets));
    this.log(`junit.xml: ${file}`);
  }
}
