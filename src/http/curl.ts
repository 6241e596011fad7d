/**
 * A curl command that repeats one recorded request, for a failure to be reproduced outside the report.
 * Secrets never appear: a credential the config names is written as a reference to its environment variable
 * (`Authorization: Bearer "$HARNESS_API_KEY"`, the names harness.config.yaml reads them from); a token the run
 * obtained itself (a login JWT, an OAuth access token) as `$HARNESS_JWT` / `$HARNESS_ACCESS_TOKEN`, which the
 * user fills with a token of their own; every other secret goes through the same redaction nets as the evidence.
 * Built from the raw request (before redaction), because a redacted header no longer says which key was sent.
 */
import { cutBody, EVIDENCE_BODY_LIMIT, type RecordedRequest } from './exchange.ts';
import { ENV_REF_CLOSE, ENV_REF_OPEN, type SecretRegistry } from './redact.ts';

/** Headers whose whole value is a credential (as in redact.ts). */
const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization', 'x-api-key', 'cookie']);
/** Headers curl sets itself or that describe the harness's own connection, not the request. */
const OMITTED_HEADERS = new Set(['content-length', 'host', 'connection', 'transfer-encoding']);

const ref = (name: string): string => `${ENV_REF_OPEN}${name}${ENV_REF_CLOSE}`;

/** Replaces every named secret in `text` (raw and URL-encoded) by a reference to its environment variable. */
function withEnvRefs(text: string, secrets: SecretRegistry): string {
  let out = text;
  for (const [value, name] of secrets.namedSecrets) {
    for (const form of new Set([value, encodeURIComponent(value)])) if (out.includes(form)) out = out.split(form).join(ref(name));
  }
  return out;
}

/** A run-time token: a JWT (three base64url parts) or anything else bearer-like. */
function tokenEnvName(token: string): string {
  return /^[\w-]+\.[\w-]+\.[\w-]*$/.test(token) ? 'HARNESS_JWT' : 'HARNESS_ACCESS_TOKEN';
}

function credentialHeader(value: string, secrets: SecretRegistry): string {
  const match = /^(\S+)\s+(\S.*)$/.exec(value);
  const [scheme, credential] = match ? [match[1] as string, match[2] as string] : ['', value];
  const name = secrets.envNameOf(credential) ?? tokenEnvName(credential);
  return scheme ? `${scheme} ${ref(name)}` : ref(name);
}

/** Shell word: literal runs single-quoted, references as "$NAME", concatenated (`'Bearer '"$HARNESS_API_KEY"`). */
export function shellWord(text: string): string {
  const parts = text.split(new RegExp(`${ENV_REF_OPEN}([A-Z][A-Z0-9_]*)${ENV_REF_CLOSE}`));
  const words = parts.map((part, i) => (i % 2 === 1 ? `"$${part}"` : part === '' ? '' : `'${part.replaceAll("'", `'\\''`)}'`)).filter((w) => w !== '');
  return words.length > 0 ? words.join('') : "''";
}

/**
 * The curl command for `request`; `secrets` must already hold every secret of the run. A body longer than the
 * evidence limit is cut like the evidence, and the command says so (it then does not resend the whole body).
 */
export function curlCommand(request: RecordedRequest, secrets: SecretRegistry): string {
  const args: string[] = ['curl', '-sS', '-i'];
  if (request.method !== 'GET' || request.body !== undefined) args.push('-X', shellWord(request.method));
  args.push(shellWord(secrets.redactUrl(withEnvRefs(request.url, secrets))));
  for (const [name, value] of Object.entries(request.headers)) {
    const lower = name.toLowerCase();
    if (OMITTED_HEADERS.has(lower)) continue;
    const shown = CREDENTIAL_HEADERS.has(lower) ? credentialHeader(value, secrets) : secrets.redactText(withEnvRefs(value, secrets));
    args.push('-H', shellWord(`${name}: ${shown}`));
  }
  let note = '';
  if (request.body !== undefined) {
    const body = secrets.redactBody(withEnvRefs(request.body, secrets));
    if (body.length > EVIDENCE_BODY_LIMIT) note = `  # body cut at ${EVIDENCE_BODY_LIMIT} characters: this command does not resend all of it`;
    args.push('--data-raw', shellWord(cutBody(body)));
  }
  return `${args.join(' ')}${note}`;
}
