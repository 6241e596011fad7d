/**
 * The forms a secret takes when a target echoes it back: what the redactor searches for. A target may write a
 * secret percent-encoded (by `encodeURIComponent`, by a form encoder with `+` and `%7E`, or by one that encodes
 * every punctuation mark, in upper or lower hex), JSON-escaped (`\"`, `\/`, `\u00xx`), HTML-escaped, as hex, or
 * inside base64 / base64url (a Basic credential `user:pass`, a JWT payload) — where it need not start on a
 * 3-byte boundary, so a plain substring search for `base64(secret)` would miss it.
 */

/** Literal forms: each is searched for as a substring and replaced by itself. Unique, non-empty. */
export function literalForms(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const forms = new Set<string>([secret]);
  for (const encoded of percentForms(secret, bytes)) {
    forms.add(encoded);
    forms.add(lowerHexEscapes(encoded, '%'));
  }
  for (const escaped of jsonForms(secret)) forms.add(escaped);
  forms.add(htmlEscape(secret));
  // Hex is byte-aligned, so a substring search finds it inside a longer hex dump too.
  forms.add(bytes.toString('hex'));
  forms.add(bytes.toString('hex').toUpperCase());
  forms.delete('');
  return [...forms];
}

/**
 * Base64 / base64url fragments that appear in ANY base64 text containing the secret's bytes: for each of the
 * three byte alignments, the characters whose 6 bits come only from the secret. A match is then widened to the
 * whole base64 token around it (see redact.ts), so `Basic base64(user:pass)` or a JWT payload goes as one piece.
 * Empty for secrets too short to leave a fragment (fewer than 3 bytes).
 */
export function base64Cores(secret: string): string[] {
  const cores = new Set<string>();
  // A JWT payload is JSON: the secret is inside it JSON-escaped before it is base64url-encoded.
  for (const form of new Set([secret, JSON.stringify(secret).slice(1, -1)])) addCores(Buffer.from(form, 'utf8'), cores);
  return [...cores];
}

function addCores(bytes: Buffer, cores: Set<string>): void {
  for (let shift = 0; shift < 3; shift += 1) {
    const padded = Buffer.concat([Buffer.alloc(shift), bytes]);
    const encoded = padded.toString('base64');
    const start = Math.ceil((8 * shift) / 6);
    const end = Math.floor((8 * (shift + bytes.length)) / 6);
    const core = encoded.slice(start, end);
    if (core.length < 2) continue;
    const url = core.replace(/\+/g, '-').replace(/\//g, '_');
    // A base64 value inside a query string has its `+` and `/` percent-encoded.
    for (const form of [core, url, encodeURIComponent(core)]) cores.add(form);
  }
}

/** Characters a base64 / base64url token (possibly percent-encoded) is made of: a core match widens over them. */
export function isBase64TokenChar(code: number): boolean {
  return (
    (code >= 48 && code <= 57) || // 0-9
    (code >= 65 && code <= 90) || // A-Z
    (code >= 97 && code <= 122) || // a-z
    code === 43 || code === 47 || code === 45 || code === 95 || code === 37 // + / - _ %
  );
}

function percentForms(secret: string, bytes: Buffer): string[] {
  const component = encodeURIComponent(secret);
  // application/x-www-form-urlencoded (URLSearchParams): space as `+`, and `!'()~` encoded too.
  const form = new URLSearchParams({ v: secret }).toString().slice(2);
  // An encoder that leaves only letters and digits alone.
  let everything = '';
  for (const byte of bytes) {
    everything += isAlnum(byte) ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return [component, component.replace(/%20/g, '+'), form, form.replace(/\+/g, '%20'), everything, encodeURI(secret)];
}

function jsonForms(secret: string): string[] {
  const plain = JSON.stringify(secret).slice(1, -1);
  const slash = plain.replace(/\//g, '\\/');
  // Every character outside printable ASCII, or every non-alphanumeric one, as \u00xx (upper and lower hex).
  const nonAscii = plain.replace(/[^\x20-\x7e]/g, (c) => unicodeEscape(c));
  const allPunct = [...secret].map((c) => (/^[A-Za-z0-9]$/.test(c) ? c : unicodeEscape(c))).join('');
  return [plain, slash, nonAscii, lowerHexEscapes(nonAscii, '\\u'), allPunct, lowerHexEscapes(allPunct, '\\u')];
}

function unicodeEscape(c: string): string {
  let out = '';
  for (let i = 0; i < c.length; i += 1) out += `\\u${c.charCodeAt(i).toString(16).toUpperCase().padStart(4, '0')}`;
  return out;
}

/** `%2F` → `%2f` (or `\u002F` → `\u002f`) without touching the secret's own characters. */
function lowerHexEscapes(text: string, prefix: '%' | '\\u'): string {
  const pattern = prefix === '%' ? /%[0-9A-F]{2}/g : /\\u[0-9A-F]{4}/g;
  return text.replace(pattern, (m) => m.toLowerCase().replace(/^\\u/, '\\u'));
}

function htmlEscape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

function isAlnum(byte: number): boolean {
  return (byte >= 48 && byte <= 57) || (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122);
}
