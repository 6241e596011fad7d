/**
 * Secrets a target sends back in pieces or in encodings (issue 22): both halves of a long secret in two fields, any
 * piece of 8 characters or more standing as a value of its own, and every encoding of a short secret (base64, hex,
 * form encoding) in credential positions — names with a secret word anywhere (`echo_split1_password`,
 * `password_b64`) and whole values. And the other side of the same rule: ordinary payloads stay as they are.
 */
import { describe, expect, it } from 'vitest';
import { REDACTED, SecretRegistry } from '../../../src/http/redact.ts';
import { redactStrings } from '../../../src/report/redact-report.ts';

const LONG = [
  'sk_hostile_full_key_0001',
  'sk_hostile_restricted_0001',
  'sk_hostile_second_0001',
  'sk_hostile_load_key_0001',
  'hostile-password-0001',
  'cs_9fK2mQx7LpR4tZ8vW1nB',
  'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyXzEifQ.c2lnbmF0dXJlLXZhbHVl',
  'at_Zx81Kq0PmW5nR3tY7uV2',
];
const SHORT = 'pw5x!';

function registry(): SecretRegistry {
  return new SecretRegistry([...LONG, SHORT]);
}

describe('a secret in pieces', () => {
  it.each(LONG)('both halves of %s, in two fields of an echo, are redacted', (secret) => {
    const half = Math.floor(secret.length / 2);
    const body = JSON.stringify({ id: 'msg_1', echo_split1: secret.slice(0, half), note: 'ok', echo_split2: secret.slice(half) });
    const out = registry().redactBody(body);
    expect(out).not.toContain(secret.slice(0, half));
    expect(out).not.toContain(secret.slice(half));
    expect(JSON.parse(out)).toMatchObject({ id: 'msg_1', note: 'ok' });
    // The same pieces in free text (a log line, a header) and in a report string.
    const text = `got ${secret.slice(0, half)} then ${secret.slice(half)}.`;
    expect(registry().redactText(text)).toBe(`got ${REDACTED} then ${REDACTED}.`);
    expect(JSON.stringify(redactStrings({ message: text }, registry()))).not.toContain(secret.slice(half));
  });

  it('any piece of 8 characters or more standing alone goes; a shorter one, or a plain word inside a secret, stays', () => {
    const secrets = registry();
    expect(secrets.redactText('key part: full_key_00')).toBe(`key part: ${REDACTED}`);
    expect(secrets.redactText('a 7-char piece: ey_0001')).toBe('a 7-char piece: ey_0001');
    // "password" is inside hostile-password-0001, and a word every login report holds.
    expect(secrets.redactText('login with email and password')).toBe('login with email and password');
  });
});

describe('a short secret in every encoding, in credential positions', () => {
  const b64 = Buffer.from(SHORT).toString('base64');
  const hex = Buffer.from(SHORT).toString('hex');
  const form = encodeURIComponent(SHORT);

  it('names with a secret word anywhere are credential positions, whatever they hold', () => {
    const body = JSON.stringify({ echo_split1_password: 'pw5', password_b64: b64, user_password_hex: hex, clientSecretForm: form, apiKeyEcho: 'x' });
    const out = JSON.parse(registry().redactBody(body));
    expect(out).toEqual({ echo_split1_password: REDACTED, password_b64: REDACTED, user_password_hex: REDACTED, clientSecretForm: REDACTED, apiKeyEcho: REDACTED });
  });

  it('a whole value that is the short secret base64-, hex- or form-encoded goes, under any name', () => {
    const body = JSON.stringify({ a: b64, b: hex, c: form, d: Buffer.from(SHORT).toString('base64url'), e: 'pw5x' });
    expect(JSON.parse(registry().redactBody(body))).toEqual({ a: REDACTED, b: REDACTED, c: REDACTED, d: REDACTED, e: 'pw5x' });
    expect(registry().redactUrl(`http://h/cb?echo=${encodeURIComponent(b64)}&q=1&hex=${hex}`)).toBe(`http://h/cb?echo=${REDACTED}&q=1&hex=${REDACTED}`);
    expect(registry().redactHeaders({ 'x-echo': b64, 'x-hex': hex })).toEqual({ 'x-echo': REDACTED, 'x-hex': REDACTED });
  });
});

describe('ordinary payloads are left readable', () => {
  const ordinary = [
    { data: [{ id: 'msg_01HF8Z', to: '14155550123', type: 'text', text: { body: 'hello from the sandbox 1732540000000' }, status: 'delivered', created_at: '2026-11-25T14:16:47.123Z' }], pagination: { next: 'cur_abcdefgh', limit: 20 } },
    { type: 'https://api-harness.example/problems/unauthorized', title: 'Unauthorized', status: 401, code: 'unauthorized', detail: 'missing or invalid credential' },
    { token_type: 'Bearer', expires_in: 900, scope: 'messages:read messages:send', tokenType: 'Bearer', token_endpoint: 'http://127.0.0.1/oauth/token' },
    { id: 'acct_1', email: 'reviewer@example.com', name: 'Reviewer', plan: 'free', created_at: '2026-01-01T00:00:00Z' },
    { id: 'wh_1', url: 'http://127.0.0.1:43121/hook', events: ['message.received', 'message.status'], created_at: '2026-11-25T14:00:00Z' },
  ];
  it.each(ordinary.map((o) => [Object.keys(o).join(','), o]))('%s is unchanged', (_keys, payload) => {
    const body = JSON.stringify(payload);
    expect(JSON.parse(registry().redactBody(body))).toEqual(payload);
    expect(registry().redactText(body)).toBe(body);
  });
});
