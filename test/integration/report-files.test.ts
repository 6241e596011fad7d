/**
 * A real run against the reference target (its credentials in play) writes report.json, report.html and
 * junit.xml; report.json matches schemas/report.schema.json and no configured secret appears in any of them.
 * A fixture whose target echoes a secret in a body and a header checks the same for the writers directly.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { SecretRegistry } from '../../src/http/redact.ts';
import { HtmlReporter } from '../../src/reporters/html-reporter.ts';
import { JsonReporter } from '../../src/reporters/json-reporter.ts';
import { JunitReporter } from '../../src/reporters/junit-reporter.ts';
import { reportIssues } from '../../src/report/report-schema.ts';
import { richReport } from '../fixtures/reports/rich-report.ts';
import { runEmbedded, type EmbeddedRun } from '../helpers/run-embedded.ts';

const FILES = ['report.json', 'report.html', 'junit.xml'] as const;
const read = (dir: string) => FILES.map((name) => [name, readFileSync(join(dir, name), 'utf8')] as const);

describe('files of a run against the reference target', () => {
  let run: EmbeddedRun;
  beforeAll(async () => {
    run = await runEmbedded();
  }, 60_000);

  it('are all written next to each other', () => {
    for (const [, text] of read(run.runDir)) expect(text.length).toBeGreaterThan(100);
  });

  it('report.json matches schemas/report.schema.json', () => {
    expect(reportIssues(JSON.parse(readFileSync(join(run.runDir, 'report.json'), 'utf8')))).toEqual([]);
  });

  it('hold no configured secret', () => {
    expect(run.secrets.length).toBeGreaterThanOrEqual(5);
    for (const [name, text] of read(run.runDir)) {
      for (const secret of run.secrets) expect(text.includes(secret), `${secret} in ${name}`).toBe(false);
    }
  });
});

describe('files of a run whose target echoes a secret', () => {
  it('redact it in every file', async () => {
    const secret = 'sk_live_echo&<"secret>_7f3a';
    const secrets = new SecretRegistry([secret]);
    const outDir = mkdtempSync(join(tmpdir(), 'echo-secret-'));
    const report = richReport({ secret, hostile: true });
    expect(JSON.stringify(report)).toContain(JSON.stringify(secret).slice(1, -1));
    for (const reporter of [new JsonReporter(secrets, () => {}), new HtmlReporter(secrets, () => {}), new JunitReporter(secrets, () => {})]) {
      await reporter.onEvent({ type: 'run-finished', report, outDir });
    }
    // Also look for the escaped forms each format would use, so an escaped leak is caught too.
    const forms = [secret, 'sk_live_echo', JSON.stringify(secret).slice(1, -1), 'sk_live_echo&amp;', 'sk_live_echo\\u0026'];
    for (const [name, text] of read(outDir)) {
      for (const form of forms) expect(text.includes(form), `${form} in ${name}`).toBe(false);
      expect(text).toContain('[REDACTED]');
    }
  });
});
