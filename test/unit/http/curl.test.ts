/** curl commands in the evidence: the request as sent, secrets only as $HARNESS_* references, shell-safe. */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { curlCommand, shellWord } from '../../../src/http/curl.ts';
import { SecretRegistry } from '../../../src/http/redact.ts';

const API_KEY = 'sk_live_abcdef123456';
const PASSWORD = 'correct horse battery';
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyIn0.c2lnbmF0dXJlLXZhbHVl';

function secrets(): SecretRegistry {
  const registry = new SecretRegistry();
  registry.addNamed(API_KEY, 'HARNESS_API_KEY');
  registry.addNamed(PASSWORD, 'HARNESS_LOGIN_PASSWORD');
  registry.add(JWT);
  registry.add('webhook-secret-xyz');
  return registry;
}

/** What bash makes of the command's words, with the variables set: the exact argv curl would get. */
function argvOf(command: string, env: Record<string, string>): string[] {
  const out = execFileSync('bash', ['--norc', '--noprofile', '-c', `printf '%s\\0' ${command.replace(/^curl /, '')}`], { env: { PATH: process.env.PATH ?? '', ...env } });
  return out.toString('utf8').split('\0').slice(0, -1);
}

describe('curlCommand', () => {
  it('writes a named credential as a reference to its environment variable, never its value', () => {
    const command = curlCommand(
      { method: 'POST', url: 'http://127.0.0.1:8080/v1/whatsapp/messages', headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' }, body: '{"to":"15551234567","text":"it\'s here"}' },
      secrets(),
    );
    expect(command).not.toContain(API_KEY);
    expect(command).toContain(`-H 'authorization: Bearer '"$HARNESS_API_KEY"`);
    expect(argvOf(command, { HARNESS_API_KEY: API_KEY })).toEqual([
      '-sS', '-i', '-X', 'POST', 'http://127.0.0.1:8080/v1/whatsapp/messages',
      '-H', `authorization: Bearer ${API_KEY}`, '-H', 'content-type: application/json',
      '--data-raw', '{"to":"15551234567","text":"it\'s here"}',
    ]);
  });

  it('keeps secret-named body fields as references when their value is a named secret, redacts the others', () => {
    const command = curlCommand(
      { method: 'POST', url: 'http://127.0.0.1:1/v1/auth/login', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'a@example.com', password: PASSWORD, token: 'unknown-token-value' }) },
      secrets(),
    );
    expect(command).not.toContain(PASSWORD);
    expect(command).not.toContain('unknown-token-value');
    const argv = argvOf(command, { HARNESS_LOGIN_PASSWORD: PASSWORD });
    expect(JSON.parse(argv.at(-1)!)).toEqual({ email: 'a@example.com', password: PASSWORD, token: '[REDACTED]' });
  });

  it('a token the run obtained (JWT) becomes $HARNESS_JWT; other bearer tokens $HARNESS_ACCESS_TOKEN; secret query parameters are redacted', () => {
    const jwt = curlCommand({ method: 'GET', url: 'http://127.0.0.1:1/v1/account', headers: { authorization: `Bearer ${JWT}` } }, secrets());
    expect(jwt).toBe(`curl -sS -i 'http://127.0.0.1:1/v1/account' -H 'authorization: Bearer '"$HARNESS_JWT"`);
    const opaque = curlCommand({ method: 'GET', url: 'http://127.0.0.1:1/cb?code=abc123def456&state=s1', headers: { authorization: 'Bearer opaque-access-token' } }, secrets());
    expect(opaque).toContain(`'authorization: Bearer '"$HARNESS_ACCESS_TOKEN"`);
    expect(opaque).toContain("'http://127.0.0.1:1/cb?code=[REDACTED]&state=s1'");
    expect(opaque).not.toContain('opaque-access-token');
  });

  it('says when the body was cut', () => {
    const command = curlCommand({ method: 'POST', url: 'http://127.0.0.1:1/x', headers: {}, body: 'x'.repeat(5000) }, secrets());
    expect(command).toMatch(/# body cut at 4096 characters/);
  });

  it('shellWord quotes single quotes and leaves references expandable', () => {
    expect(shellWord("a'b")).toBe(`'a'\\''b'`);
    expect(shellWord('')).toBe("''");
  });
});
