/**
 * Redaction of secrets from anything the harness writes or prints. Three nets, because a target may echo a
 * secret back anywhere: (1) known secret values (config credentials plus every token, code or password the
 * harness obtained during the run) are replaced wherever they occur as substrings; (2) credential-bearing
 * headers are replaced whatever their value; (3) JSON properties and query parameters whose names say
 * "secret" are replaced whatever their value.
 */
export const REDACTED = '[REDACTED]';

const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key']);
/** JSON property names whose values are secrets (tokens, passwords, client secrets). */
const SECRET_PROPERTY = /^(password|client_secret|clientsecret|secret|token|access_token|refresh_token|id_token|code_verifier|api_key|apikey|authorization)$/i;
/**
 * Query / form parameter names whose values are secrets. `code` is here (an OAuth authorization code in a
 * redirect) but not among the JSON properties, where `code` is a problem+json error code such as "unauthorized".
 */
const SECRET_PARAM = /^(password|client_secret|secret|token|access_token|refresh_token|id_token|code|code_verifier|api_key|apikey|key)$/i;
/** Secrets shorter than this are not substring-replaced: "abc" would shred unrelated text. */
const MIN_SECRET_LENGTH = 6;

/**
 * Where a reproduction command (curl.ts) stands in an environment variable for a secret, the text holds
 * `ENV_REF_OPEN NAME ENV_REF_CLOSE` (private-use characters no target sends). Such a reference is not a secret:
 * the nets below leave it whole, so `"password": <ref>` stays a reference instead of becoming [REDACTED].
 */
export const ENV_REF_OPEN = '\uE000';
export const ENV_REF_CLOSE = '\uE001';
const ENV_REF = /^\uE000[A-Z][A-Z0-9_]*\uE001$/;

export class SecretRegistry {
  #values = new Set<string>();
  /** Secret value → the environment variable a user sets it in (HARNESS_API_KEY …), for reproduction commands. */
  #envNames = new Map<string, string>();

  constructor(initial: Iterable<string> = []) {
    for (const value of initial) this.add(value);
  }

  /** Registers a secret value; empty and very short values are ignored. */
  add(value: string | undefined | null): void {
    if (typeof value === 'string' && value.length >= MIN_SECRET_LENGTH) this.#values.add(value);
  }

  /** Registers a secret together with the environment variable that holds it (README "Credentials"). */
  addNamed(value: string | undefined | null, envName: string): void {
    this.add(value);
    if (typeof value === 'string' && value.length >= MIN_SECRET_LENGTH && !this.#envNames.has(value)) this.#envNames.set(value, envName);
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
    return this.#values.has(value);
  }

  get size(): number {
    return this.#values.size;
  }

  /** Replaces every registered secret inside `text`, longest first (a token may contain a shorter secret). */
  redactText(text: string): string {
    if (this.#values.size === 0 || text.length === 0) return text;
    let out = text;
    for (const secret of [...this.#values].sort((a, b) => b.length - a.length)) {
      if (out.includes(secret)) out = out.split(secret).join(REDACTED);
      // URL-encoded forms appear in query strings and form bodies.
      const encoded = encodeURIComponent(secret);
      if (encoded !== secret && out.includes(encoded)) out = out.split(encoded).join(REDACTED);
      // A target that echoes a secret inside a JSON string writes `"` and `\` escaped.
      const jsonEscaped = JSON.stringify(secret).slice(1, -1);
      if (jsonEscaped !== secret && out.includes(jsonEscaped)) out = out.split(jsonEscaped).join(REDACTED);
    }
    return out;
  }

  redactHeaders(headers: Readonly<Record<string, string | string[] | undefined>>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [name, raw] of Object.entries(headers)) {
      if (raw === undefined) continue;
      const value = Array.isArray(raw) ? raw.join(', ') : raw;
      const lower = name.toLowerCase();
      // A redirect's Location carries OAuth codes and tokens in its query.
      out[name] = SECRET_HEADERS.has(lower) ? redactCredentialHeader(value) : lower === 'location' ? this.redactUrl(value) : this.redactText(value);
    }
    return out;
  }

  /** Redacts a URL: known secrets, and values of secret-named query parameters. */
  redactUrl(url: string): string {
    return this.redactText(url).replace(/([?&])([^=&#]+)=([^&#]*)/g, (match, sep: string, name: string, value: string) =>
      SECRET_PARAM.test(decodeSafe(name)) && !ENV_REF.test(value) ? `${sep}${name}=${REDACTED}` : match,
    );
  }

  /**
   * Redacts a body. JSON bodies are walked so secret-named properties are replaced whatever their value;
   * form bodies are treated like query strings; anything else gets substring replacement.
   */
  redactBody(body: string): string {
    const trimmed = body.trimStart();
    if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
      try {
        return this.redactText(JSON.stringify(redactJsonValue(JSON.parse(body)), null, 0));
      } catch {
        // Not JSON after all (or truncated): fall through to text redaction.
      }
    }
    if (/^[^\s=&]+=[^\s]*(&[^\s=&]+=[^\s]*)*$/.test(body.trim())) return this.redactUrl(`?${body.trim()}`).slice(1);
    return this.redactText(body);
  }

  /** Deep-redacts any JSON-serialisable value (used for evidence objects and report fields). */
  redactValue<T>(value: T): T {
    return JSON.parse(this.redactText(JSON.stringify(redactJsonValue(value)))) as T;
  }
}

function redactCredentialHeader(value: string): string {
  // Keep the scheme: "Bearer [REDACTED]" still tells a reader which scheme was sent.
  const match = /^(\S+)\s+\S/.exec(value);
  return match ? `${match[1]} ${REDACTED}` : REDACTED;
}

function redactJsonValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactJsonValue);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      out[key] = SECRET_PROPERTY.test(key) && typeof inner === 'string' && !ENV_REF.test(inner) ? REDACTED : redactJsonValue(inner);
    }
    return out;
  }
  return value;
}

function decodeSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
