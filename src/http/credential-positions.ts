/**
 * Credential positions: places in text where whatever stands there is a credential, so it is redacted whatever
 * its value and however short. This is the net for secrets too short to search for everywhere (a 2-character
 * password replaced everywhere would shred every report): a `Basic` credential, a URL's userinfo password, and a
 * base64 / base64url token (a Basic blob, a JWT payload) whose decoded content holds a known secret in such a
 * position. Secret-named JSON properties, query and form parameters are the other positions (redact.ts).
 */
export const REDACTED = '[REDACTED]';

/**
 * A name that holds a secret word anywhere is a credential position: `password`, but also `password_b64`,
 * `echo_split1_password`, `clientSecret`, `x_access_token` (a target that echoes a secret under a name of its own
 * choosing still names it). Whatever such a name holds is redacted, however short and in whatever encoding: this
 * is the net for short secrets (base64, hex, form-encoded).
 */
const SECRET_WORD = /pass(?:word|wd|phrase)|secret|token|api[_-]?key|authorization|code_?verifier/i;
/** Names with a secret word that hold no secret: what a token is (type, lifetime, endpoint), not the token. */
const NOT_A_SECRET = /^(?:token_?type|token_?endpoint\w*)$|(?:_|^)(?:type|endpoint|url|uri|expires_in|expires_at|expiry|count|ttl|ttl_seconds|length|hint)$|(?:Type|Endpoint|Url|Uri|ExpiresIn|ExpiresAt|Count|Ttl|Length|Hint)$/;

/** A name whose value is a secret: `test` like a RegExp's. */
export interface NameTest {
  test(name: string): boolean;
}

/** JSON property names whose values are secrets (tokens, passwords, client secrets): any name with a secret word. */
export const SECRET_PROPERTY: NameTest = { test: (name) => SECRET_WORD.test(name) && !NOT_A_SECRET.test(name) };
/**
 * Query / form parameter names whose values are secrets: the same names, and `code` (an OAuth authorization code in
 * a redirect) and `key`, which are not secret-named JSON properties (there `code` is a problem+json error code
 * such as "unauthorized").
 */
export const SECRET_PARAM: NameTest = { test: (name) => /^(?:code|key)$/i.test(name) || SECRET_PROPERTY.test(name) };

/** `Basic <base64>` anywhere (a header echoed into a body, a log line). */
const BASIC = /\b(Basic)(\s+)([A-Za-z0-9+/]{2,}={0,2})(?![A-Za-z0-9+/=])/gi;
/** `scheme://user:password@`: the password part, whatever it is. */
const USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)([^/?#@\s:"'<>\\]*):([^/?#@\s"'<>\\]+)@/gi;
/** A base64 / base64url token long enough to hold a credential (`a:bc` is 4 bytes, 8 characters with padding). */
const TOKEN = /[A-Za-z0-9+/_-]{6,}={0,2}/g;

/** Redacts the credential positions of `text`; `secrets` are every known secret, short ones included. */
export function redactCredentialPositions(text: string, secrets: ReadonlySet<string>, decodeTokens: boolean): string {
  let out = text;
  if (/basic/i.test(out)) out = out.replace(BASIC, (match, scheme: string, space: string, blob: string) => (looksLikeBasic(blob) ? `${scheme}${space}${REDACTED}` : match));
  if (out.includes('://')) out = out.replace(USERINFO, (_m, scheme: string, user: string) => `${scheme}${user}:${REDACTED}@`);
  if (decodeTokens && secrets.size > 0) out = out.replace(TOKEN, (token) => (decodedHoldsSecret(token, secrets) ? REDACTED : token));
  return out;
}

/**
 * True when `value` is exactly a known secret in any encoding a whole value takes: literal, percent- or
 * form-encoded, hex, base64 or base64url (a whole value is a credential position, so a 5-character password sent
 * back as `cGFzczE=` goes too).
 */
export function isWholeSecret(value: string, secrets: ReadonlySet<string>): boolean {
  if (secrets.has(value) || encodesSecret(value, secrets)) return true;
  const decoded = decodeForm(value);
  // A base64 value in a query string has its `=`, `+` and `/` percent-encoded.
  return decoded !== value && (secrets.has(decoded) || encodesSecret(decoded, secrets));
}

/** Whether `value` is a known secret as hex or base64 / base64url (canonical encodings only). */
function encodesSecret(value: string, secrets: ReadonlySet<string>): boolean {
  if (value.length >= 2 && value.length % 2 === 0 && /^[0-9a-f]+$/i.test(value) && secrets.has(Buffer.from(value, 'hex').toString('utf8'))) return true;
  if (value.length >= 2 && /^[A-Za-z0-9+/_-]+={0,2}$/.test(value)) {
    const bytes = Buffer.from(value.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    // Only a canonical encoding counts (re-encoding gives the value back): arbitrary words decode to noise.
    const again = bytes.toString('base64');
    const canonical = again === value || again.replace(/=+$/, '') === value.replace(/=+$/, '') || again.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '') === value.replace(/=+$/, '');
    if (canonical && secrets.has(bytes.toString('utf8'))) return true;
  }
  return false;
}

/** `+` as space, then percent-decoding; the text itself when it is not valid percent-encoding. */
export function decodeForm(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/** A Basic credential decodes to printable `user:password`; `Basic realm="x"` does not. */
function looksLikeBasic(blob: string): boolean {
  const decoded = Buffer.from(blob, 'base64').toString('utf8');
  return decoded.includes(':') && !/[\u0000-\u001f\ufffd]/.test(decoded);
}

/**
 * A token whose decoded bytes are `user:<secret>` (Basic), or a JSON object (a JWT payload) with a secret-named
 * property or any string value equal to a known secret.
 */
function decodedHoldsSecret(token: string, secrets: ReadonlySet<string>): boolean {
  const decoded = Buffer.from(token.replace(/=+$/, ''), 'base64').toString('utf8');
  if (decoded.length < 3 || decoded.includes('\ufffd')) return false;
  const colon = decoded.indexOf(':');
  if (colon >= 0 && secrets.has(decoded.slice(colon + 1))) return true;
  if (!decoded.startsWith('{')) return false;
  try {
    return jsonHoldsSecret(JSON.parse(decoded), secrets);
  } catch {
    return false;
  }
}

/** Iterative: the decoded token is the target's, and may nest deeper than any stack. */
function jsonHoldsSecret(value: unknown, secrets: ReadonlySet<string>): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node === 'string') {
      if (secrets.has(node)) return true;
    } else if (Array.isArray(node)) {
      for (const item of node) stack.push(item);
    } else if (node && typeof node === 'object') {
      for (const [key, inner] of Object.entries(node)) {
        if (SECRET_PROPERTY.test(key) && typeof inner === 'string') return true;
        stack.push(inner);
      }
    }
  }
  return false;
}
