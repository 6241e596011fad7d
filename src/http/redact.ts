/**
 * Redaction of secrets from anything the harness writes or prints. Three nets, because a target may echo a
 * secret back anywhere and in any encoding: (1) known secret values (config credentials plus every token, code
 * or password the harness obtained during the run) are replaced wherever they occur, in every form
 * `secret-encodings.ts` lists (literal, percent-, form-, JSON-, HTML-encoded, hex, base64 and base64url at any
 * byte alignment); (2) credential positions are replaced whatever their value (credential headers, `Basic`
 * blobs, URL userinfo passwords, secret-named JSON properties and query / form / fragment parameters, and a
 * header, JSON string or parameter whose whole value is a known secret); (3) base64 tokens whose decoded content
 * holds a known secret in a credential position. Secrets shorter than MIN_ANYWHERE_LENGTH are caught by (2) and
 * (3) only: replacing a 2-character password everywhere would shred every report (docs/decisions/2026-11-21-redaction.md).
 */
import { REDACTED, SECRET_PARAM, SECRET_PROPERTY, decodeForm, isWholeSecret, redactCredentialPositions } from './credential-positions.ts';
import { FormIndex, type FormHit } from './form-index.ts';
import { base64Cores, isBase64TokenChar, literalForms } from './secret-encodings.ts';
import { mapJson, stringifyJson } from '../util/deep-json.ts';

export { REDACTED } from './credential-positions.ts';

const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key']);
/** Secrets at least this long are searched for everywhere, in every encoding; shorter ones in credential positions. */
export const MIN_ANYWHERE_LENGTH = 6;
/** A piece of a longer secret this long or longer, standing as a token of its own, is redacted (#redactFragments). */
export const MIN_FRAGMENT_LENGTH = 8;
/** A token for the fragment net: what a key, a password or a token is made of, delimited by anything else. */
const FRAGMENT_TOKEN = /[A-Za-z0-9_.~!$*@-]{8,}/g;
/** A character FRAGMENT_TOKEN does not hold: a secret with one has pieces that net cannot see (#addPieces). */
const SEPARATOR = /[^A-Za-z0-9_.~!$*@-]/;

/** Kinds of character in `token`: lower case, upper case, digits, others. */
function classesOf(token: string): number {
  return (/[a-z]/.test(token) ? 1 : 0) + (/[A-Z]/.test(token) ? 1 : 0) + (/[0-9]/.test(token) ? 1 : 0) + (/[^A-Za-z0-9]/.test(token) ? 1 : 0);
}

/**
 * Where a reproduction command (curl.ts) stands in an environment variable for a secret, the text holds
 * `ENV_REF_OPEN NAME ENV_REF_CLOSE` (private-use characters no target sends). Such a reference is not a secret:
 * the nets below leave it whole, so `"password": <ref>` stays a reference instead of becoming [REDACTED].
 */
export const ENV_REF_OPEN = '\uE000';
export const ENV_REF_CLOSE = '\uE001';
const ENV_REF = /^\uE000[A-Z][A-Z0-9_]*\uE001$/;

export class SecretRegistry {
  #all = new Set<string>();
  /** Secret value → the environment variable a user sets it in (HARNESS_API_KEY …), for reproduction commands. */
  #envNames = new Map<string, string>();
  #long = new Set<string>();
  /** Secrets long enough to have fragments of MIN_FRAGMENT_LENGTH that are not the whole secret. */
  #fragmentable: string[] = [];
  /** Every form of every long secret: literal forms, and base64 cores (widened to their token). */
  #forms = new FormIndex();

  constructor(initial: Iterable<string> = []) {
    for (const value of initial) this.add(value);
  }

  /** Registers a secret value of any length; empty values are ignored. */
  add(value: string | undefined | null): void {
    if (typeof value !== 'string' || value.length === 0 || this.#all.has(value)) return;
    this.#all.add(value);
    if (value.length >= MIN_ANYWHERE_LENGTH) {
      this.#long.add(value);
      if (value.length > MIN_FRAGMENT_LENGTH) this.#fragmentable.push(value);
      for (const form of literalForms(value)) this.#forms.add(form, false);
      for (const core of base64Cores(value)) this.#forms.add(core, true);
      if (value.length > MIN_FRAGMENT_LENGTH && SEPARATOR.test(value)) this.#addPieces(value);
    }
  }

  /**
   * A secret with separators in it (`P@ss w0rd/+&=~!x`): the fragment net below finds pieces only as tokens of
   * token characters, so a half holding a space or `/+&=` went through whole. Every run of MIN_FRAGMENT_LENGTH
   * characters of such a secret (two kinds of character at least, as below) is a form of its own, in every
   * encoding a secret is searched in; a hit on the raw piece widens over whatever more of the secret stands there.
   */
  #addPieces(secret: string): void {
    for (let i = 0; i + MIN_FRAGMENT_LENGTH <= secret.length; i++) {
      const piece = secret.slice(i, i + MIN_FRAGMENT_LENGTH);
      if (classesOf(piece) < 2) continue;
      this.#forms.add(piece, false, { secret, offset: i });
      for (const form of literalForms(piece)) this.#forms.add(form, false);
      for (const core of base64Cores(piece)) this.#forms.add(core, true);
    }
  }

  /** Registers a secret together with the environment variable that holds it. */
  addNamed(value: string | undefined | null, envName: string): void {
    this.add(value);
    if (typeof value === 'string' && value.length > 0 && !this.#envNames.has(value)) this.#envNames.set(value, envName);
  }

  /** The environment variable of a registered secret value, when it has one. */
  envNameOf(value: string): string | undefined {
    return this.#envNames.get(value);
  }

  /** Named secrets, longest value first (a token may contain a shorter secret). */
  get namedSecrets(): Array<[value: string, envName: string]> {
    return [...this.#envNames].sort((a, b) => b[0].length - a[0].length);
  }

  has(value: string): boolean {
    return this.#all.has(value);
  }

  get size(): number {
    return this.#all.size;
  }

  /** Replaces every registered secret inside `text`, in every encoding, and redacts credential positions. */
  redactText(text: string): string {
    if (text.length === 0) return text;
    let out = this.#long.size > 0 ? replaceHits(text, this.#forms.find(text)) : text;
    if (this.#fragmentable.length > 0 && out.length >= MIN_FRAGMENT_LENGTH) out = this.#redactFragments(out);
    return redactCredentialPositions(out, this.#all, this.#all.size > this.#long.size);
  }

  /**
   * A piece of a long secret standing as a token of its own (a JSON string, a header or parameter value, a word):
   * a target that echoes `secret.slice(0, n / 2)` in one field and the rest in another leaks the whole secret in
   * two pieces, neither of which is the secret. A token of MIN_FRAGMENT_LENGTH characters or more that lies inside a
   * longer secret is replaced — unless it is made of one kind of character only (`password` inside the password
   * `hostile-password-0001` is an ordinary word in every report; `hostile-pa` or `sk_hostile_f` is not).
   */
  #redactFragments(text: string): string {
    return text.replace(FRAGMENT_TOKEN, (token) => {
      // A sentence's full stop (or other punctuation) around a piece is not part of it.
      const lead = /^[.~!$*@]*/.exec(token)![0].length;
      const trail = /[.~!$*@]*$/.exec(token)![0].length;
      const core = token.slice(lead, token.length - trail);
      if (core.length < MIN_FRAGMENT_LENGTH || classesOf(core) < 2) return token;
      for (const secret of this.#fragmentable) {
        if (secret.length > core.length && secret.includes(core)) return `${token.slice(0, lead)}${REDACTED}${token.slice(token.length - trail)}`;
      }
      return token;
    });
  }

  redactHeaders(headers: Readonly<Record<string, string | string[] | undefined>>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [name, raw] of Object.entries(headers)) {
      if (raw === undefined) continue;
      const value = Array.isArray(raw) ? raw.join(', ') : raw;
      const lower = name.toLowerCase();
      // A redirect's Location carries OAuth codes and tokens in its query.
      if (SECRET_HEADERS.has(lower)) out[name] = redactCredentialHeader(value);
      else if (isWholeSecret(value.trim(), this.#all)) out[name] = REDACTED;
      else out[name] = lower === 'location' || lower === 'content-location' ? this.redactUrl(value) : this.redactText(value);
    }
    return out;
  }

  /** Redacts a URL: known secrets, userinfo, and values of secret-named or secret-valued query / fragment parameters. */
  redactUrl(url: string): string {
    // Parameters first, on the URL as sent: a value is judged whole (decoded) before any net cuts a piece out of it.
    const byParam = url.replace(/([?&#;])([^=&#;]+)=([^&#;]*)/g, (match, sep: string, name: string, value: string) => {
      const decoded = decodeForm(value);
      // The decoded value also catches a secret a target percent-encoded in a way no variant lists.
      if (ENV_REF.test(value)) return match;
      const secret = SECRET_PARAM.test(decodeForm(name)) || isWholeSecret(value, this.#all) || this.#containsLong(decoded);
      return secret ? `${sep}${name}=${REDACTED}` : match;
    });
    return this.redactText(byParam);
  }

  /**
   * Redacts a body. JSON bodies are walked so secret-named properties (and strings that are exactly a secret) are
   * replaced whatever their value; form bodies are treated like query strings; anything else gets text redaction.
   */
  redactBody(body: string): string {
    const trimmed = body.trimStart();
    if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
      try {
        return this.redactText(stringifyJson(this.#redactJson(JSON.parse(body))));
      } catch {
        // Not JSON after all (or truncated): fall through to text redaction.
      }
    }
    if (/^[^\s=&]+=[^\s]*(&[^\s=&]+=[^\s]*)*$/.test(body.trim())) return this.redactUrl(`?${body.trim()}`).slice(1);
    return this.redactText(body);
  }

  /** Deep-redacts any JSON-serialisable value (used for evidence objects and report fields). */
  redactValue<T>(value: T): T {
    return JSON.parse(this.redactText(stringifyJson(this.#redactJson(value)))) as T;
  }

  /** Secret-named members and whole-secret strings replaced, at any depth (a target's JSON may nest 200 000 deep). */
  #redactJson(value: unknown): unknown {
    return mapJson(value, {
      onString: (text) => (isWholeSecret(text, this.#all) ? REDACTED : text),
      replace: (key, inner) => (SECRET_PROPERTY.test(key) && typeof inner === 'string' && !ENV_REF.test(inner) ? { value: REDACTED } : undefined),
    });
  }

  #containsLong(text: string): boolean {
    for (const secret of this.#long) if (text.includes(secret)) return true;
    return false;
  }
}

/** Replaces each hit; a base64-fragment hit together with the whole base64 token around it (and its `=` padding). */
function replaceHits(text: string, hits: readonly FormHit[]): string {
  if (hits.length === 0) return text;
  let out = '';
  let copied = 0;
  for (const hit of hits) {
    if (hit.start < copied) {
      // Inside the token a previous hit already widened over; a piece reaching past it is redacted with it.
      if (hit.end > copied && !hit.widen) copied = hit.end;
      continue;
    }
    let { start, end } = hit;
    if (hit.widen) {
      while (start > copied && isBase64TokenChar(text.charCodeAt(start - 1))) start -= 1;
      while (end < text.length && isBase64TokenChar(text.charCodeAt(end))) end += 1;
      while (end < text.length && text[end] === '=') end += 1;
    }
    out += text.slice(copied, start) + REDACTED;
    copied = end;
  }
  return out + text.slice(copied);
}

function redactCredentialHeader(value: string): string {
  // Keep the scheme: "Bearer [REDACTED]" still tells a reader which scheme was sent.
  const match = /^(\S+)\s+\S/.exec(value);
  return match ? `${match[1]} ${REDACTED}` : REDACTED;
}
