/**
 * Every encoding a target might echo a secret in, computed independently of the redactor (no shared code), for
 * the redaction tests to send and then look for.
 */
export function encodingsOf(secret: string): Record<string, string> {
  const bytes = Buffer.from(secret, 'utf8');
  const form = new URLSearchParams({ v: secret }).toString().slice(2);
  const b64 = bytes.toString('base64');
  const out: Record<string, string> = {
    literal: secret,
    encodeURIComponent: encodeURIComponent(secret),
    'encodeURIComponent, lower hex': encodeURIComponent(secret).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()),
    'form-urlencoded': form,
    'form-urlencoded, lower hex': form.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()),
    'every punctuation encoded': [...bytes].map((b) => (/[A-Za-z0-9]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`)).join(''),
    'JSON-escaped': JSON.stringify(secret).slice(1, -1),
    'JSON-escaped, \\/': JSON.stringify(secret).slice(1, -1).replace(/\//g, '\\/'),
    'JSON, non-ASCII as \\u': JSON.stringify(secret).slice(1, -1).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
    base64: b64,
    'base64, no padding': b64.replace(/=+$/, ''),
    base64url: bytes.toString('base64url'),
    'base64url, padded': bytes.toString('base64url') + '='.repeat((4 - (bytes.toString('base64url').length % 4)) % 4),
    'hex lower': bytes.toString('hex'),
    'hex upper': bytes.toString('hex').toUpperCase(),
    'Basic user:secret': `Basic ${Buffer.from(`user:${secret}`).toString('base64')}`,
    'JWT payload': `eyJhbGciOiJIUzI1NiJ9.${Buffer.from(JSON.stringify({ sub: 'u1', secret_echo: secret })).toString('base64url')}.c2ln`,
  };
  return out;
}
