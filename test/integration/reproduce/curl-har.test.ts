/**
 * Reproducible failures: against a target that breaks two MUST rules, every evidence exchange in report.json
 * and report.html offers a curl command with $HARNESS_* references, `harness run --har` writes a valid HAR 1.2
 * file, no secret value is in any output, and a curl command from the evidence, run for real with the
 * variables set, gets the same answer the check saw.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromObject } from '../../../src/config/index.ts';
import { runJob, type JobOutcome } from '../../../src/job/run-job.ts';
import { createAjv } from '../../../src/schemas/registry.ts';
import { createDefaultRegistry } from '../../../suites/index.ts';
import { startFaultyTarget, withJson, type FaultyTarget } from '../../targets/faulty-proxy.ts';

const HAR_SCHEMA = JSON.parse(readFileSync(new URL('../../fixtures/har/har-1.2.schema.json', import.meta.url), 'utf8'));

let target: FaultyTarget;
let outcome: JobOutcome;
let harFile: string;
let secrets: string[];

beforeAll(async () => {
  // Sends answer 500 and logins answer a body without a token: smoke's send and login checks fail.
  target = await startFaultyTarget({
    onResponse: (req, res) =>
      req.method === 'POST' && req.path === '/v1/whatsapp/messages' ? withJson({ ...res, status: 500 }, { error: 'boom' }) : req.path === '/v1/auth/login' ? withJson(res, { expires_in: 3 }) : res,
  });
  const out = mkdtempSync(join(tmpdir(), 'harness-reproduce-'));
  harFile = join(out, 'traffic.har');
  const config = configFromObject({ target: { baseUrl: target.baseUrl }, credentials: target.credentials, conformance: { suites: ['smoke'] }, report: { outDir: out } });
  outcome = await runJob({ config, registry: createDefaultRegistry(), log: () => {}, harFile });
  const c = target.reference.credentials;
  secrets = [...Object.values(c.apiKeys), c.login.password, c.oauth.clientSecret, c.otherOAuthClient.clientSecret];
}, 60_000);

afterAll(async () => {
  await target?.close();
});

describe('reproducible failures', () => {
  it('every evidence exchange in report.json carries a curl command with $HARNESS_* references', () => {
    const failed = outcome.report.checks.filter((c) => c.status === 'failed');
    expect(failed.map((c) => c.id)).toEqual(expect.arrayContaining(['smoke.send-text-message', 'smoke.login-issues-jwt']));
    const exchanges = failed.flatMap((c) => c.evidence?.exchanges ?? []);
    expect(exchanges.length).toBeGreaterThan(0);
    for (const exchange of exchanges) expect(exchange.curl).toMatch(/^curl -sS -i /);
    const send = failed.find((c) => c.id === 'smoke.send-text-message')!.evidence!.exchanges[0]!;
    expect(send.curl).toContain(`'authorization: Bearer '"$HARNESS_API_KEY"`);
    const login = failed.find((c) => c.id === 'smoke.login-issues-jwt')!.evidence!.exchanges[0]!;
    expect(login.curl).toContain(`"password":"'"$HARNESS_LOGIN_PASSWORD"'"`);
  });

  it('report.html shows each command as text', () => {
    const html = readFileSync(join(outcome.runDir, 'report.html'), 'utf8');
    // The report is embedded as JSON and each exchange's command rendered as text into a <pre class="curl">.
    expect(html).toMatch(/"curl":"curl -sS -i -X 'POST' [^\n]*?HARNESS_API_KEY/);
    expect(html).toContain("el('pre', { class: 'curl' }, ex.curl)");
  });

  it('the HAR file is HAR 1.2 with one entry per exchange of the checks', () => {
    const har = JSON.parse(readFileSync(harFile, 'utf8'));
    const validate = createAjv([HAR_SCHEMA]).getSchema(HAR_SCHEMA.$id)!;
    expect(validate(har), JSON.stringify(validate.errors)).toBe(true);
    expect(har.log.entries.length).toBeGreaterThan(0);
    const send = har.log.entries.find((e: any) => e.request.method === 'POST' && e.request.url.endsWith('/v1/whatsapp/messages'));
    expect(send.response.status).toBe(500);
    expect(send.request.headers).toContainEqual({ name: 'authorization', value: 'Bearer [REDACTED]' });
    expect(send.comment).toMatch(/^check smoke\./);
  });

  it('no secret value is in report.json, report.html, junit.xml or the HAR file', () => {
    for (const file of [join(outcome.runDir, 'report.json'), join(outcome.runDir, 'report.html'), join(outcome.runDir, 'junit.xml'), harFile]) {
      const text = readFileSync(file, 'utf8');
      for (const secret of secrets) expect(text.includes(secret), `${file} contains a secret`).toBe(false);
    }
  });

  it('the curl command, run with the variables set, gets the answer the check saw', async () => {
    const send = outcome.report.checks.find((c) => c.id === 'smoke.send-text-message')!.evidence!.exchanges[0]!;
    const { stdout } = await promisify(execFile)('bash', ['--norc', '--noprofile', '-c', send.curl!], {
      env: { PATH: process.env.PATH ?? '', HARNESS_API_KEY: target.credentials.apiKey! },
    });
    expect(stdout).toMatch(/^HTTP\/1\.1 500 /);
    expect(stdout).toContain('{"error":"boom"}');
  });
});
