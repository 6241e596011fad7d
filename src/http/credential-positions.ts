/**
 * Credential positions: places in text where whatever stands there is a credential, so it is redacted whatever
 * its value and however short. This is the net for secrets too short to search for everywhere (a 2-character
 * password replaced everywhere would shred every report): a `Basic` credential, a URL's userinfo password, and a
 * base64 / base64url token (a Basic blob, a JWT payload) whose decoded content holds a known secret in such a
 * position. Secret-named JSON properties, query and form parameters are the other positions (redact.ts).
 */
export const REDACTED = '[REDACTED]';

/** JSON property names whose values are secrets (tokens, passwords, client secrets). */
export const SECRET_PROPERTY = /^(password|passwd|client_secret|clientsecret|secret|token|access_token|refresh_token|id_token|code_verifier|api_key|apikey|authorization)$/i;
/**
 * Query / form parameter names whose values are secrets. `code` is here (an OAuth authorization code in a
 * redirect) but not among the JSON properties, where `code` is a problem+json error code such as "unauthorized".
 */
export const SECRET_PARAM = /^(password|passwd|client_secret|secret|token|access_token|refresh_token|id_token|code|code_verifier|api_key|apikey|key)$/i;

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

/** True when `value` is exactly a known secret, also after percent-decoding (a whole value is a credential position). */
export function isWholeSecret(value: string, secrets: ReadonlySet<string>): boolean {
  if (secrets.has(value)) return true;
  const decoded = decodeForm(value);
  return decoded !== value && secrets.has(decoded);
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

function jsonHoldsSecret(value: unknown, secrets: ReadonlySet<string>): boolean {
  if (typeof value === 'string') return secrets.has(value);
  if (Array.isArray(value)) return value.some((item) => jsonHoldsSecret(item, secrets));
  if (value && typeof value === 'object') {
    return Object.entries(value).some(([key, inner]) => (SECRET_PROPERTY.test(key) && typeof inner === 'string') || jsonHoldsSecret(inner, secrets));
  }
  return false;
}
