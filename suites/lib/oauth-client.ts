/**
 * The harness as an OAuth2 client (SERVICE-SPEC §5 rule 3; RFC 6749 §4.1, RFC 7636): gets authorization codes
 * the way the config says — `automated` (consent POSTed with the user's JWT, PROFILE.md), `code` (one code
 * handed over in the config) or `command` (a command prints one) — and exchanges them at the token endpoint.
 * Codes are single-use, so every check that needs one asks for its own; with `code` only the first gets one.
 * Also the OAuth checks' shared preconditions and their OAuth-error assertion (RFC 6749 §5.2).
 */
import { exec } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import type { OAuthClientConfig, OAuthConfig } from '../../src/config/types.ts';
import type { Check } from '../../src/conformance/check.ts';
import { fail, skip } from '../../src/conformance/outcomes.ts';
import type { CheckContext } from '../../src/conformance/context.ts';
import { obtainJwt } from '../../src/conformance/operations.ts';
import { guarded, requiresCredential, requiresProfile, withPrecondition } from '../../src/conformance/preconditions.ts';
import type { HttpResponse } from '../../src/http/client.ts';

export interface CodeRequest {
  /** Scopes to ask for. @default credentials.oauth.scope */
  scope?: string;
  /** Send a PKCE S256 challenge. @default whether the config uses PKCE (see usesPkce) */
  pkce?: boolean;
  /** The user's decision (only automated consent can deny). @default "approve" */
  decision?: 'approve' | 'deny';
}

export interface Authorization {
  state: string;
  /** Absent when the user denied or the redirect carried an error. */
  code?: string;
  verifier?: string;
  /** The consent answer (automated consent only). */
  response?: HttpResponse;
  /** Where the user-agent was sent back (automated consent, or a command that printed the redirect URL). */
  location?: URL;
}

export function oauthConfig(ctx: CheckContext): OAuthConfig {
  return ctx.credentials.oauth as OAuthConfig;
}

/** PKCE is used when the profile area is on and the config's client uses it. */
export function usesPkce(ctx: CheckContext): boolean {
  return ctx.config.conformance.profile.pkce && oauthConfig(ctx).pkce;
}

/** Runs steps (a)–(c) of §5 rule 3. Throws an Error saying why no authorization could be had. */
export async function authorize(ctx: CheckContext, request: CodeRequest = {}): Promise<Authorization> {
  const oauth = oauthConfig(ctx);
  const state = randomBytes(12).toString('base64url');
  const pkce = request.pkce ?? usesPkce(ctx);
  const verifier = pkce ? randomBytes(32).toString('base64url') : undefined;
  ctx.secrets.add(verifier);
  const params: Record<string, string | undefined> = {
    response_type: 'code',
    client_id: oauth.clientId,
    redirect_uri: oauth.redirectUri,
    scope: request.scope ?? oauth.scope,
    state,
    ...(verifier ? { code_challenge: s256(verifier), code_challenge_method: 'S256' } : {}),
  };
  const decision = request.decision ?? 'approve';
  if (oauth.consent === 'automated') return automatedConsent(ctx, params, decision, verifier);
  if (decision === 'deny') throw new Error(`only automated consent can deny, and credentials.oauth.consent is "${oauth.consent}"`);
  if (oauth.consent === 'code') {
    if (request.scope !== undefined || request.pkce !== undefined) throw new Error('consent mode "code" supplies a code for a fixed request; this check needs a request of its own');
    if (!oauth.code) throw new Error('credentials.oauth.code is not set');
    let first = false;
    await ctx.memo('auth.oauth.given-code', async () => (first = true));
    if (!first) throw new Error('consent mode "code" supplies one single-use authorization code, already spent by an earlier check; this check needs another');
    ctx.secrets.add(oauth.code);
    return { state, code: oauth.code };
  }
  return commandConsent(ctx, params, state, verifier);
}

/** Like authorize, but a check that cannot get a code is skipped with the reason. */
export async function requireCode(ctx: CheckContext, request: CodeRequest = {}): Promise<Authorization & { code: string }> {
  const auth = await authorize(ctx, request).catch((err: Error) => skip(`needs an authorization code, but ${err.message}`));
  if (auth.code === undefined) skip(`needs an authorization code, but the consent step answered ${auth.location ? `a redirect without one (${auth.location.searchParams.get('error') ?? 'no error either'})` : 'no code'}`);
  return auth as Authorization & { code: string };
}

/** The consent POST did not redirect; `status` tells a missing endpoint (404/405) from a wrong answer. */
export class ConsentNotRedirected extends Error {
  constructor(readonly status: number, hasLocation: boolean) {
    super(`the consent POST answered ${status}${hasLocation ? '' : ' without a Location'}, not a redirect to the client`);
  }
}

async function automatedConsent(ctx: CheckContext, params: Record<string, string | undefined>, decision: string, verifier: string | undefined): Promise<Authorization> {
  const jwt = await obtainJwt(ctx);
  const response = await ctx.http.request({ method: 'POST', path: ctx.path('oauthAuthorize'), form: { ...params, decision }, bearer: jwt });
  const header = response.header('location');
  if (response.status < 300 || response.status > 399 || !header) {
    throw new ConsentNotRedirected(response.status, Boolean(header));
  }
  const location = new URL(header, params.redirect_uri);
  const code = location.searchParams.get('code') ?? undefined;
  ctx.secrets.add(code);
  return { state: params.state!, response, location, ...(code !== undefined ? { code } : {}), ...(verifier ? { verifier } : {}) };
}

/**
 * Runs credentials.oauth.codeCommand with the authorization request in its environment
 * (HARNESS_OAUTH_AUTHORIZE_URL, _CLIENT_ID, _REDIRECT_URI, _SCOPE, _STATE, _CODE_CHALLENGE) and reads the code —
 * or the whole redirect URL — from the first line it prints.
 */
async function commandConsent(ctx: CheckContext, params: Record<string, string | undefined>, state: string, verifier: string | undefined): Promise<Authorization> {
  const command = oauthConfig(ctx).codeCommand;
  if (!command) throw new Error('credentials.oauth.codeCommand is not set');
  const query = new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined));
  const env = {
    ...process.env,
    HARNESS_OAUTH_AUTHORIZE_URL: `${ctx.http.url(ctx.path('oauthAuthorize'))}?${query}`,
    HARNESS_OAUTH_CLIENT_ID: params.client_id,
    HARNESS_OAUTH_REDIRECT_URI: params.redirect_uri,
    HARNESS_OAUTH_SCOPE: params.scope,
    HARNESS_OAUTH_STATE: state,
    ...(params.code_challenge ? { HARNESS_OAUTH_CODE_CHALLENGE: params.code_challenge } : {}),
  };
  const timeout = Math.max(1000, ctx.config.conformance.checkTimeoutMs - 2000);
  const output = await new Promise<string>((resolve, reject) => {
    exec(command, { env, timeout }, (err, stdout) => (err ? reject(new Error(`credentials.oauth.codeCommand failed: ${err.message.split('\n')[0]}`)) : resolve(stdout)));
  });
  const line = output.split(/\r?\n/).find((l) => l.trim().length > 0)?.trim();
  if (!line) throw new Error('credentials.oauth.codeCommand printed nothing');
  const location = URL.canParse(line) ? new URL(line) : undefined;
  const code = location ? location.searchParams.get('code') ?? undefined : line;
  ctx.secrets.add(code);
  return { state, ...(location ? { location } : {}), ...(code !== undefined ? { code } : {}), ...(verifier ? { verifier } : {}) };
}

export function s256(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/** The token request of §2.7, plus redirect_uri (RFC 6749 §4.1.3: the authorization request sent one) and the PKCE verifier. */
export function tokenFields(ctx: CheckContext, auth: Authorization & { code: string }, client: OAuthClientConfig = oauthConfig(ctx)): Record<string, string | undefined> {
  return {
    grant_type: 'authorization_code',
    code: auth.code,
    client_id: client.clientId,
    client_secret: client.clientSecret,
    redirect_uri: client.redirectUri,
    code_verifier: auth.verifier,
  };
}

/** POST to the token endpoint as JSON (SERVICE-SPEC §4) or form-encoded (RFC 6749 §4.1.3); tokens become secrets. */
export async function requestToken(ctx: CheckContext, fields: Record<string, string | undefined>, encoding: 'json' | 'form' = 'json'): Promise<HttpResponse> {
  const body = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Record<string, string>;
  const res = await ctx.http.request({ method: 'POST', path: ctx.path('oauthToken'), ...(encoding === 'json' ? { json: body } : { form: body }) });
  const issued = res.json<Record<string, unknown>>();
  if (issued && typeof issued === 'object') for (const key of ['access_token', 'refresh_token', 'id_token']) if (typeof issued[key] === 'string') ctx.secrets.add(issued[key]);
  return res;
}

export interface Exchange {
  auth: Authorization & { code: string };
  res: HttpResponse;
}

/** The run's first code exchange (default request, JSON), shared by the checks that only read its answer. */
export function firstExchange(ctx: CheckContext): Promise<Exchange> {
  return ctx.memo('auth.oauth.first-exchange', async () => {
    const auth = await requireCode(ctx);
    return { auth, res: await requestToken(ctx, tokenFields(ctx, auth)) };
  });
}

/** The access token of the first exchange; the check is skipped when there is none. */
export async function issuedToken(ctx: CheckContext): Promise<{ token: string; scope: string | undefined; res: HttpResponse }> {
  const { res } = await firstExchange(ctx);
  const body = res.json<Record<string, unknown>>();
  if (res.status < 200 || res.status > 299 || typeof body?.access_token !== 'string') {
    skip(`the code exchange issued no access token (${res.status}; auth.oauth.code-exchange reports it)`);
  }
  return { token: body.access_token, scope: typeof body.scope === 'string' ? body.scope : undefined, res };
}

/** The `error` member of an OAuth error body (RFC 6749 §5.2), if any. */
export function oauthError(res: HttpResponse): string | undefined {
  const error = res.json<Record<string, unknown>>()?.error;
  return typeof error === 'string' ? error : undefined;
}

/** Every OAuth check: the PROFILE area is on and a client is configured. */
export function oauthCheck(check: Check, ...more: Array<(check: Check) => Check>): Check {
  return guarded(check, requiresProfile('oauth'), requiresCredential('oauth'), ...more);
}

/** Checks that choose the request (scope, PKCE, decision) or read the redirect: only automated consent does that. */
export const requiresAutomatedConsent = withPrecondition((ctx) =>
  ctx.credentials.oauth?.consent === 'automated' ? undefined : `needs automated consent (credentials.oauth.consent is "${ctx.credentials.oauth?.consent}")`,
);

export const requiresOtherClient = withPrecondition((ctx) =>
  ctx.credentials.oauth?.otherClient ? undefined : 'no credentials.oauth.otherClient configured for this target',
);

/** The answer is an OAuth error with one of `statuses` and `error`. */
export function expectOAuthError(res: HttpResponse, statuses: readonly number[], error: string, what: string): void {
  const got = oauthError(res);
  if (statuses.includes(res.status) && got === error) return;
  const wanted = `${statuses.join(' or ')} with {"error": "${error}"}`;
  if (res.status >= 200 && res.status < 300) fail(`${what}: expected ${wanted}, got ${res.status} — the request was granted`, { expected: { status: statuses, error }, actual: { status: res.status } });
  fail(`${what}: expected ${wanted}, got ${res.status} with ${got === undefined ? 'no OAuth error member' : `{"error": "${got}"}`}`, { expected: { status: statuses, error }, actual: { status: res.status, error: got ?? null } });
}
