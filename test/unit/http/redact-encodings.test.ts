import { describe, expect, it } from 'vitest';
import { REDACTED, SecretRegistry } from '../../../src/http/redact.ts';
import { encodingsOf } from '../../helpers/secret-encodings.ts';

/** Secrets with the characters encoders treat differently: space, `~`, `!`, `'`, `/`, `+`, `"`, `\`, non-ASCII. */
const LONG = ['sk_live_abcdef123456', "pa ss~word!'(x)*", 'a/b+c="d\\e"', 'clé-secrète-ü'];

describe('SecretRegistry: every encoding of a secret', () => {
  const secrets = new SecretRegistry(LONG);

  for (const secret of LONG) {
    for (const [name, encoded] of Object.entries(encodingsOf(secret))) {
      it(`redacts ${JSON.stringify(secret)} as ${name}`, () => {
        const text = `before ${encoded} after`;
        const out = secrets.redactText(text);
        expect(out).not.toContain(encoded);
        expect(out).toContain('before ');
        expect(out).toContain(' after');
      });
    }
  }

  it('redacts a secret inside a larger base64 blob at every byte alignment, the whole token', () => {
    for (const prefix of ['', 'x', 'xy', 'xyz', 'user:']) {
      for (const suffix of ['', '!', '!!', '!!!']) {
        const raw = `${prefix}sk_live_abcdef123456${suffix}`;
        for (const blob of [Buffer.from(raw).toString('base64'), Buffer.from(raw).toString('base64url')]) {
          expect(secrets.redactText(`"${blob}"`)).toBe(`"${REDACTED}"`);
        }
      }
    }
  });

  it('redacts a secret inside a JWT payload, keeping the other segments', () => {
    const payload = Buffer.from(JSON.stringify({ sub: 'u1', pw: 'pa ss~word!\'(x)*' })).toString('base64url');
    const jwt = `eyJhbGciOiJIUzI1NiJ9.${payload}.c2lnbmF0dXJl`;
    expect(secrets.redactText(jwt)).toBe(`eyJhbGciOiJIUzI1NiJ9.${REDACTED}.c2lnbmF0dXJl`);
  });

  it('keeps ordinary text and base64 that holds no secret', () => {
    const text = 'verdict CERTIFIED; id msg_01HZX; blob aGVsbG8gd29ybGQ=; hex deadbeef';
    expect(secrets.redactText(text)).toBe(text);
  });

  it('redacts a percent-encoded secret in any mix of encoding inside a URL query and fragment', () => {
    const url = 'http://h/cb?x=sk%5Flive%5Fabcdef123456&state=s1#frag=sk_live_abcdef%31%32%33456';
    expect(secrets.redactUrl(url)).toBe(`http://h/cb?x=${REDACTED}&state=s1#frag=${REDACTED}`);
  });
});

describe('SecretRegistry: short secrets in credential positions', () => {
  const secrets = new SecretRegistry(['pw', 'k3y']);

  it('leaves free text alone', () => {
    expect(secrets.redactText('a pw, a k3y and pwk3y')).toBe('a pw, a k3y and pwk3y');
  });

  it('redacts Basic credentials anywhere, whatever they hold, but not a Basic challenge', () => {
    const blob = Buffer.from('alice:pw').toString('base64');
    expect(secrets.redactText(`echo: "Basic ${blob}"`)).toBe(`echo: "Basic ${REDACTED}"`);
    expect(secrets.redactText('WWW-Authenticate: Basic realm="api"')).toBe('WWW-Authenticate: Basic realm="api"');
  });

  it('redacts a bare base64 / base64url blob that decodes to user:secret or a JSON payload holding it', () => {
    expect(secrets.redactText(`x ${Buffer.from('alice:pw').toString('base64url')} y`)).toBe(`x ${REDACTED} y`);
    const payload = Buffer.from(JSON.stringify({ sub: 'u', key: 'k3y' })).toString('base64url');
    expect(secrets.redactText(`eyJhbGciOiJIUzI1NiJ9.${payload}.sig`)).toBe(`eyJhbGciOiJIUzI1NiJ9.${REDACTED}.sig`);
  });

  it('redacts a URL userinfo password whatever it is', () => {
    expect(secrets.redactText('GET http://alice:pw@h/x and http://bob:anything@h/y')).toBe(`GET http://alice:${REDACTED}@h/x and http://bob:${REDACTED}@h/y`);
  });

  it('redacts whole values equal to a secret: JSON strings, parameters, headers', () => {
    expect(secrets.redactBody(JSON.stringify({ echo: 'k3y', text: 'the k3y' }))).toBe(JSON.stringify({ echo: REDACTED, text: 'the k3y' }));
    expect(secrets.redactUrl('http://h/?e=pw&f=pwd')).toBe(`http://h/?e=${REDACTED}&f=pwd`);
    expect(secrets.redactBody('a=k%33y&b=1')).toBe(`a=${REDACTED}&b=1`);
    expect(secrets.redactHeaders({ 'x-echo': 'pw', 'x-other': 'pwd' })).toEqual({ 'x-echo': REDACTED, 'x-other': 'pwd' });
  });
});
