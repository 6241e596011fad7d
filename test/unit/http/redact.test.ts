import { describe, expect, it } from 'vitest';
import { REDACTED, SecretRegistry } from '../../../src/http/redact.ts';

describe('SecretRegistry', () => {
  const secrets = new SecretRegistry(['sk_live_abcdef123456', 'hunter2hunter2']);

  it('replaces known secrets wherever they occur, also URL-encoded', () => {
    expect(secrets.redactText('key=sk_live_abcdef123456 and again sk_live_abcdef123456')).toBe(`key=${REDACTED} and again ${REDACTED}`);
    const withSlash = new SecretRegistry(['pa/ss+word==']);
    expect(withSlash.redactText('p=pa%2Fss%2Bword%3D%3D')).toBe(`p=${REDACTED}`);
  });

  it('does not replace short secrets in free text, only in credential positions', () => {
    const tiny = new SecretRegistry(['abc']);
    expect(tiny.size).toBe(1);
    expect(tiny.redactText('abcabc')).toBe('abcabc');
    expect(tiny.redactBody(JSON.stringify({ echo: 'abc', note: 'abcabc' }))).toBe(JSON.stringify({ echo: REDACTED, note: 'abcabc' }));
  });

  it('redacts credential headers whatever their value, keeping the scheme', () => {
    expect(secrets.redactHeaders({ Authorization: 'Bearer unknown-token-value', 'x-request-id': 'r1' })).toEqual({
      Authorization: `Bearer ${REDACTED}`,
      'x-request-id': 'r1',
    });
    expect(secrets.redactHeaders({ cookie: 'sid=1' })).toEqual({ cookie: REDACTED });
  });

  it('redacts secret-named JSON properties but keeps problem+json error codes', () => {
    const body = JSON.stringify({ access_token: 'xyz-unknown', password: 'p', code: 'unauthorized', nested: [{ client_secret: 's' }] });
    expect(JSON.parse(secrets.redactBody(body))).toEqual({
      access_token: REDACTED,
      password: REDACTED,
      code: 'unauthorized',
      nested: [{ client_secret: REDACTED }],
    });
  });

  it('redacts secret query and form parameters, including OAuth codes in a Location', () => {
    expect(secrets.redactUrl('http://h/cb?code=abc123xyz&state=s1')).toBe(`http://h/cb?code=${REDACTED}&state=s1`);
    expect(secrets.redactBody('grant_type=authorization_code&code=c0de&client_secret=zzz')).toBe(
      `grant_type=authorization_code&code=${REDACTED}&client_secret=${REDACTED}`,
    );
    expect(secrets.redactHeaders({ location: 'http://127.0.0.1/cb?code=secretcode&state=x' })).toEqual({
      location: `http://127.0.0.1/cb?code=${REDACTED}&state=x`,
    });
  });

  it('redacts known secrets inside bodies that are not JSON', () => {
    expect(secrets.redactBody('<p>your password is hunter2hunter2</p>')).toBe(`<p>your password is ${REDACTED}</p>`);
  });

  it('deep-redacts values', () => {
    expect(secrets.redactValue({ a: ['sk_live_abcdef123456'], token: 'whatever-it-is' })).toEqual({ a: [REDACTED], token: REDACTED });
  });
});
