/**
 * The OAuth checks under the two non-automated consent modes, against a real reference target: `code` (one code
 * from the config: the flow check spends it, checks that need another skip with the reason) and `command` (a
 * command completes the authorization request it is handed and prints the redirect URL).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentialsFromReference } from '../../../../src/job/open-target.ts';
import { startReferenceTarget } from '../../../../src/target/index.ts';
import type { StartedReferenceTarget } from '../../../../src/target/types.ts';
import { resultOf, runHarness } from '../../../helpers/run-harness.ts';

let target: StartedReferenceTarget;
beforeAll(async () => {
  target = await startReferenceTarget({ host: '127.0.0.1', port: 0 });
});
afterAll(() => target.close());

/** Consent done by hand (what a person would do in the browser), without PKCE. */
async function handMadeCode(): Promise<string> {
  const { login, oauth } = target.credentials;
  const { token } = (await (await fetch(`${target.baseUrl}/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(login) })).json()) as { token: string };
  const form = new URLSearchParams({ response_type: 'code', client_id: oauth.clientId, redirect_uri: oauth.redirectUri, scope: 'messages:send messages:read', state: 's', decision: 'approve' });
  const res = await fetch(`${target.baseUrl}/v1/oauth/authorize`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form, redirect: 'manual' });
  return new URL(res.headers.get('location')!).searchParams.get('code')!;
}

const statusOf = (outcome: Awaited<ReturnType<typeof runHarness>>, id: string) => resultOf(outcome, id).status;

describe('OAuth consent modes', () => {
  it('code: the flow check spends the one code; checks needing another code or a chosen request skip, saying why', async () => {
    const credentials = credentialsFromReference(target.credentials);
    credentials.oauth = { ...credentials.oauth!, consent: 'code', code: await handMadeCode(), pkce: false };
    const outcome = await runHarness({ baseUrl: target.baseUrl, credentials, suites: ['auth'] });
    for (const id of ['auth.oauth.code-exchange', 'auth.oauth.token-response-fields', 'auth.oauth.token-no-store', 'auth.oauth.token-within-scope', 'auth.oauth.unsupported-grant-type', 'auth.oauth.authorize-bad-client-rejected']) {
      expect(statusOf(outcome, id), id).toBe('passed');
    }
    expect(resultOf(outcome, 'auth.oauth.code-reuse-rejected')).toMatchObject({ status: 'skipped', message: expect.stringContaining('one single-use authorization code') });
    expect(resultOf(outcome, 'auth.oauth.pkce-verifier-checked')).toMatchObject({ status: 'skipped', message: expect.stringContaining('a request of its own') });
    expect(resultOf(outcome, 'auth.oauth.state-echoed')).toMatchObject({ status: 'skipped', message: expect.stringContaining('automated consent') });
    expect(outcome.report.checks.filter((c) => c.status === 'failed' || c.status === 'error')).toEqual([]);
  });

  it('command: every code comes from the command, PKCE included', async () => {
    const credentials = credentialsFromReference(target.credentials);
    const script = [
      'const u = new URL(process.env.HARNESS_OAUTH_AUTHORIZE_URL);',
      "const login = await (await fetch(new URL('/v1/auth/login', u), { method: 'POST', headers: { 'content-type': 'application/json' }, body: process.env.TEST_LOGIN })).json();",
      "const form = new URLSearchParams(u.searchParams); form.set('decision', 'approve');",
      "const res = await fetch(new URL(u.pathname, u), { method: 'POST', headers: { authorization: 'Bearer ' + login.token }, body: form, redirect: 'manual' });",
      "console.log(res.headers.get('location'));",
    ].join(' ');
    process.env.TEST_LOGIN = JSON.stringify(target.credentials.login);
    credentials.oauth = { ...credentials.oauth!, consent: 'command', codeCommand: `node --input-type=module -e "${script.replaceAll('"', '\\"')}"` };
    try {
      const outcome = await runHarness({ baseUrl: target.baseUrl, credentials, suites: ['auth'] });
      for (const id of ['auth.oauth.code-exchange', 'auth.oauth.code-reuse-rejected', 'auth.oauth.code-reuse-revokes-tokens', 'auth.oauth.pkce-verifier-checked', 'auth.oauth.other-client-code', 'auth.oauth.form-encoded-exchange']) {
        expect(statusOf(outcome, id), id).toBe('passed');
      }
      expect(statusOf(outcome, 'auth.oauth.denial-redirect')).toBe('skipped');
      expect(outcome.report.checks.filter((c) => c.status === 'failed' || c.status === 'error')).toEqual([]);
    } finally {
      delete process.env.TEST_LOGIN;
    }
  });
});
