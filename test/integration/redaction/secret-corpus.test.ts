/**
 * The secret corpus: a real `harness run` (the CLI, a child process) against a target that echoes every configured
 * secret in every encoding. Afterwards no output file and no console line holds any of them in any encoding — the
 * encodings are computed here, independently of the redactor.
 */
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../../helpers/cli.ts';
import { encodingsOf } from '../../helpers/secret-encodings.ts';
import { startEchoTarget, type EchoTarget } from './echo-target.ts';

const API_KEY = 'sk_live_Corpus7Key~!x';
const SECOND_KEY = 'second key/with+plus=';
const CLIENT_SECRET = "cs-'quote'\"double\"-é";
/** A password far below the "anywhere" length: echoed in credential positions only. */
const SHORT_PASSWORD = 'Pw9!';
const LONG = [API_KEY, SECOND_KEY, CLIENT_SECRET];

describe('secret corpus: every secret in every encoding, through a real harness run', () => {
  let target: EchoTarget;
  let result: CliResult;
  let files: Record<string, string>;
  let compare: CliResult;

  beforeAll(async () => {
    target = await startEchoTarget(LONG, [SHORT_PASSWORD]);
    const dir = mkdtempSync(join(tmpdir(), 'harness-secrets-'));
    const out = join(dir, 'reports');
    const config = join(dir, 'harness.config.yaml');
    writeFileSync(
      config,
      [
        'target:',
        `  baseUrl: ${target.url}`,
        '  timeoutMs: 3000',
        'credentials:',
        `  apiKey: ${JSON.stringify(API_KEY)}`,
        `  secondKey: ${JSON.stringify(SECOND_KEY)}`,
        '  login:',
        '    email: alice@example.com',
        `    password: ${JSON.stringify(SHORT_PASSWORD)}`,
        '  oauth:',
        '    clientId: corpus-client',
        `    clientSecret: ${JSON.stringify(CLIENT_SECRET)}`,
        '    redirectUri: http://127.0.0.1:9/cb',
        '',
      ].join('\n'),
    );
    result = await runCli(['run', '--config', config, '--suite', 'smoke,auth,errors', '--no-load', '--out', out], { timeoutMs: 170_000 });
    const [runId] = readdirSync(out);
    files = {};
    for (const name of ['report.json', 'report.html', 'junit.xml']) files[name] = readFileSync(join(out, runId!, name), 'utf8');
    // The compare outputs of that report (twice: compare needs two runs).
    const second = join(dir, 'second.json');
    copyFileSync(join(out, runId!, 'report.json'), second);
    const md = join(dir, 'summary.md');
    compare = await runCli(['compare', join(out, runId!, 'report.json'), second, '--out', join(dir, 'compare'), '--summary-md', md]);
    for (const name of ['compare.json', 'compare.html']) files[name] = readFileSync(join(dir, 'compare', name), 'utf8');
    files['summary.md'] = readFileSync(md, 'utf8');
  }, 180_000);

  afterAll(async () => {
    await target?.close();
  });

  it('ran checks against the echoing target and wrote every report file', () => {
    expect(target.requests()).toBeGreaterThan(10);
    expect(JSON.parse(files['report.json']!).checks.length).toBeGreaterThan(10);
    expect(result.stdout).toContain('verdict:');
    expect(compare.code).toBe(0);
    // Redaction kept every file whole: report.html's embedded data still parses.
    const data = /<script type="application\/json" id="page-data">([\s\S]*?)<\/script>/.exec(files['report.html']!)?.[1];
    expect(JSON.parse(data!).report.checks.length).toBe(JSON.parse(files['report.json']!).checks.length);
  });

  const outputs = (): Record<string, string> => ({ ...files, stdout: result.stdout, stderr: result.stderr, 'compare stdout': compare.stdout });

  for (const secret of LONG) {
    it(`no output holds ${JSON.stringify(secret)} in any encoding`, () => {
      const leaks: string[] = [];
      for (const [file, text] of Object.entries(outputs())) {
        for (const [encoding, encoded] of Object.entries(encodingsOf(secret))) {
          if (text.includes(encoded)) leaks.push(`${file}: ${encoding} (${encoded})`);
        }
      }
      expect(leaks).toEqual([]);
    });
  }

  it(`no output holds the ${SHORT_PASSWORD.length}-character password in a credential position or as a whole value`, () => {
    const blobs = [
      SHORT_PASSWORD,
      new URLSearchParams({ v: SHORT_PASSWORD }).toString().slice(2),
      Buffer.from(`alice:${SHORT_PASSWORD}`).toString('base64'),
      Buffer.from(JSON.stringify({ sub: 'alice', pwd: SHORT_PASSWORD })).toString('base64url'),
      `alice:${encodeURIComponent(SHORT_PASSWORD)}@`,
      Buffer.from(`alice@example.com:${SHORT_PASSWORD}`).toString('base64'),
    ];
    const leaks: string[] = [];
    for (const [file, text] of Object.entries(outputs())) for (const blob of blobs) if (text.includes(blob)) leaks.push(`${file}: ${blob}`);
    expect(leaks).toEqual([]);
  });
});

describe('error messages at the command boundary', () => {
  it('never print a URL password, even for an error the config pipeline did not see', async () => {
    // A port nothing listens on: the target is unreachable and the error names its URL.
    const closed = await startEchoTarget([], []);
    const port = new URL(closed.url).port;
    await closed.close();
    const out = mkdtempSync(join(tmpdir(), 'harness-secrets-'));
    for (const command of [['load', '--scenario', 'smoke'], ['run', '--no-load', '--suite', 'smoke']]) {
      const result = await runCli([...command, '--target', `http://bob:Pw9!x@127.0.0.1:${port}`, '--out', out], { timeoutMs: 60_000 });
      expect(`${result.stdout}${result.stderr}`, command[0]).toContain('bob:[REDACTED]@');
      expect(`${result.stdout}${result.stderr}`, command[0]).not.toContain('Pw9!x');
    }
  }, 120_000);
});
