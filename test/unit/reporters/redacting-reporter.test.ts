import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCompare } from '../../../src/compare/run-compare.ts';
import type { HarnessEvent } from '../../../src/report/events.ts';
import { REDACTED, SecretRegistry } from '../../../src/http/redact.ts';
import { ConsoleReporter } from '../../../src/reporters/console-reporter.ts';
import { redactingReporter } from '../../../src/reporters/redacting-reporter.ts';
import { richReport } from '../../fixtures/reports/rich-report.ts';
import { encodingsOf } from '../../helpers/secret-encodings.ts';

const SECRET = 'console-secret~!42';

describe('console lines pass the secret registry', () => {
  it('redacts every encoding of a secret and URL userinfo from what the console reporter prints', async () => {
    let printed = '';
    const reporter = redactingReporter(new ConsoleReporter({ write: (t) => (printed += t), color: false }), new SecretRegistry([SECRET]));
    const encodings = Object.values(encodingsOf(SECRET));
    await reporter.onEvent({ type: 'run-started', runId: 'r1', startedAt: '2030-01-01T00:00:00.000Z', target: { baseUrl: 'http://bob:hunter@127.0.0.1:1', embedded: false }, suites: [] } as HarnessEvent);
    for (const encoded of encodings) await reporter.onEvent({ type: 'notice', level: 'warn', message: `target said ${encoded}` } as HarnessEvent);
    expect(printed).toContain(`http://bob:${REDACTED}@127.0.0.1:1`);
    expect(printed.split('\n').filter((l) => l.startsWith('warning: target said')).length).toBe(encodings.length);
    for (const encoded of encodings) expect(printed).not.toContain(encoded);
  });
});

describe('compare outputs', () => {
  it('redact credential positions of reports written elsewhere, and the secrets a caller gives', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'compare-redact-'));
    const a = join(dir, 'a.json');
    const b = join(dir, 'b.json');
    const basic = `Basic ${Buffer.from('alice:pw').toString('base64')}`;
    for (const [file, id] of [[a, 'A'], [b, 'B']] as const) {
      const report = richReport({ runId: id });
      report.run.target.baseUrl = 'http://alice:s3cr3t@127.0.0.1:8080';
      report.run.id = `${id} ${basic} ${SECRET}`;
      writeFileSync(file, JSON.stringify(report));
    }
    let text = '';
    const md = join(dir, 'summary.md');
    await runCompare({ files: [a, b], outDir: join(dir, 'out'), summaryMd: md, write: (t) => (text += t), secrets: new SecretRegistry([SECRET]) });
    for (const [name, output] of Object.entries({ text, md: readFileSync(md, 'utf8'), json: readFileSync(join(dir, 'out', 'compare.json'), 'utf8'), html: readFileSync(join(dir, 'out', 'compare.html'), 'utf8') })) {
      expect(output, name).not.toContain('s3cr3t');
      expect(output, name).not.toContain(Buffer.from('alice:pw').toString('base64'));
      expect(output, name).not.toContain(SECRET);
      expect(output, name).toContain(name === 'html' ? 'REDACTED' : REDACTED);
    }
  });
});
