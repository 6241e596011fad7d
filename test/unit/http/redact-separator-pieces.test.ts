/**
 * Secrets with separators in them: the token net finds a piece only as a run of `[A-Za-z0-9_.~!$*@-]`, so a half of
 * `P@ss w0rd/+&=~!x` (`P@ss w0r`, `d/+&=~!x`) went through whole. Every 8-character piece of such a secret is now a
 * form of its own, in the encodings a secret is searched in, widened over the rest of the secret that stands there.
 */
import { describe, expect, it } from 'vitest';
import { REDACTED, SecretRegistry } from '../../../src/http/redact.ts';

const PASSWORD = 'P@ss w0rd/+&=~!x';
const CLIENT_SECRET = 'cs/Sec+ret=~!x y_0123456789';
const registry = new SecretRegistry([PASSWORD, CLIENT_SECRET]);

const halves = (secret: string): [string, string] => [secret.slice(0, Math.floor(secret.length / 2)), secret.slice(Math.floor(secret.length / 2))];
const kinds = (s: string): number => [/[a-z]/, /[A-Z]/, /[0-9]/, /[^A-Za-z0-9]/].filter((r) => r.test(s)).length;

/** Every 8-character piece of `secret` with two kinds of character or more: what no output may hold. */
function pieces(secret: string): string[] {
  const out: string[] = [];
  for (let i = 0; i + 8 <= secret.length; i++) if (kinds(secret.slice(i, i + 8)) >= 2) out.push(secret.slice(i, i + 8));
  return out;
}

describe.each([PASSWORD, CLIENT_SECRET])('the pieces of %j', (secret) => {
  const [a, b] = halves(secret);

  it.each([
    ['two JSON fields', JSON.stringify({ echo_1: a, note: 'second part follows', echo_2: b })],
    ['two headers', `x-part-a: ${a}\nx-part-b: ${b}`],
    ['JSON inside JSON', JSON.stringify(JSON.stringify({ a, b }))],
    ['JSON with \\/', JSON.stringify({ a, b }).replace(/\//g, '\\/')],
    ['HTML-escaped', `<p>${a.replace(/&/g, '&amp;')}</p><p>${b.replace(/&/g, '&amp;')}</p>`],
    ['base64', `${Buffer.from(a).toString('base64')} ${Buffer.from(b).toString('base64')}`],
    ['hex', `${Buffer.from(a).toString('hex')}:${Buffer.from(b).toString('hex')}`],
    ['a half glued to other text', `prefix${a}suffix and ${b}.`],
  ])('%s: no half and no 8-character piece is left', (_how, text) => {
    const out = registry.redactText(text);
    expect(out).toContain(REDACTED);
    for (const piece of [a, b, ...pieces(secret)]) expect(out, piece).not.toContain(piece);
    for (const half of [a, b]) {
      expect(out).not.toContain(Buffer.from(half).toString('base64'));
      expect(out).not.toContain(Buffer.from(half).toString('hex'));
    }
  });

  it('percent-encoded halves: at most a few characters of either are left, never 8', () => {
    const out = registry.redactText(`a=${encodeURIComponent(a)}&b=${encodeURIComponent(b)}`);
    const decoded = decodeURIComponent(out.replace(/\[REDACTED\]/g, '\u0000'));
    for (const piece of pieces(secret)) expect(decoded).not.toContain(piece);
    expect(out).not.toContain(encodeURIComponent(a));
    expect(out).not.toContain(encodeURIComponent(b));
  });
});

describe('what stays', () => {
  it('ordinary text and plain words are left alone', () => {
    for (const text of ['an ordinary sentence about passwords and secrets', 'digits 0123456789 in a row', 'second part follows', '/v1/auth/login?next=/home']) {
      expect(registry.redactText(text)).toBe(text);
    }
  });

  it('a secret without separators keeps the token net alone (no pieces of its own)', () => {
    const plain = new SecretRegistry(['sk_hostile_full_key_0001']);
    expect(plain.redactText('prefix sk_hostile_fu suffix')).toBe(`prefix ${REDACTED} suffix`);
    expect(plain.redactText('harness-hostile-run')).toBe('harness-hostile-run');
  });
});
