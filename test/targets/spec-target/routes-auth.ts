/**
 * Login, account and the OAuth2 code flow of the spec-only target (SERVICE-SPEC §2.6, §2.7, §5 rules 2–3).
 * Its choices where the spec is silent: the authorization endpoint is /v1/oauth2/auth; consent is given by POSTing
 * to it with the account's JWT (the harness's "automated" consent); PKCE S256 is honoured when a challenge is sent.
 */
import { bearerOf, error, isObject, type Answer, type Req } from './http.ts';
import { newId, s256, type SpecState } from './state.ts';
import type { SpecVariant } from './index.ts';

export const AUTHORIZE_PATH = '/v1/oauth2/auth';
const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

export async function login(req: Req, state: SpecState, variant: SpecVariant): Promise<Answer> {
  const body = isObject(req.body) ? req.body : {};
  const { email, password } = body;
  if (typeof email !== 'string' || typeof password !== 'string' || !EMAIL.test(email)) return error(400, 'email and password are required', 'email');
  const known = email.toLowerCase() === state.credentials.email;
  // any-password: the seeded fault of SERVICE-SPEC §5 rules 2 and 5 (a wrong password yields a token).
  const passwordOk = variant === 'any-password' || password === state.credentials.password;
  if (!known || !passwordOk) return error(401, 'invalid email or password');
  if (variant === 'static-token') {
    // A token baked in at deploy time, long expired: unusable the moment it is issued (the seeded fault).
    return { status: 200, body: { token: await state.issueJwt(-3600), expires_in: state.jwtTtlSeconds } };
  }
  return { status: 200, body: { token: await state.issueJwt(), expires_in: state.jwtTtlSeconds } };
}

export async function account(req: Req, state: SpecState): Promise<Answer> {
  const credential = bearerOf(req);
  if (!credential) return unauthorized(false);
  const access = state.accessTokens.get(credential);
  if ((access && access.expiresAt > Date.now()) || (await state.verifyJwt(credential))) {
    return { status: 200, body: { id: 'acct_1', email: state.credentials.email, name: 'Spec Target Owner' } };
  }
  return unauthorized(true);
}

export function unauthorized(sent: boolean): Answer {
  const challenge = sent ? 'Bearer realm="spec-target", error="invalid_token"' : 'Bearer realm="spec-target"';
  return error(401, sent ? 'invalid credential' : 'credential required', undefined, { 'www-authenticate': challenge });
}

/** The client and redirect URI this target registered, or undefined (then: 400, never a redirect). */
function clientOf(state: SpecState, clientId: unknown, redirectUri: unknown): { clientId: string; redirectUri: string; clientSecret: string } | undefined {
  const { oauth, otherClient } = state.credentials;
  const client = [oauth, otherClient].find((c) => c.clientId === clientId);
  return client && client.redirectUri === redirectUri ? client : undefined;
}

export async function authorize(req: Req, state: SpecState): Promise<Answer> {
  const params: Record<string, unknown> = req.method === 'GET' ? Object.fromEntries(req.query) : isObject(req.body) ? { ...Object.fromEntries(req.query), ...req.body } : {};
  const client = clientOf(state, params['client_id'], params['redirect_uri']);
  if (!client) return error(400, 'unknown client_id or unregistered redirect_uri');
  if (params['response_type'] !== 'code') return redirect(client.redirectUri, { error: 'unsupported_response_type', state: params['state'] });
  if (req.method === 'GET') {
    return { status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body: '<!doctype html><title>Approve</title><p>Sign in and approve the application.</p>' };
  }
  const jwt = bearerOf(req);
  if (!jwt || !(await state.verifyJwt(jwt))) return unauthorized(jwt !== undefined);
  if (params['decision'] !== 'approve') return redirect(client.redirectUri, { error: 'access_denied', state: params['state'] });
  const challenge = typeof params['code_challenge'] === 'string' ? params['code_challenge'] : undefined;
  const code = state.newCode({ clientId: client.clientId, redirectUri: client.redirectUri, scope: String(params['scope'] ?? ''), ...(challenge ? { challenge } : {}) });
  return redirect(client.redirectUri, { code, state: params['state'] });
}

function redirect(uri: string, params: Record<string, unknown>): Answer {
  const url = new URL(uri);
  for (const [name, value] of Object.entries(params)) if (typeof value === 'string') url.searchParams.set(name, value);
  return { status: 302, headers: { location: url.toString() } };
}

/** RFC 6749 §5.2 errors, as the standard spells them. */
const oauthError = (status: number, code: string): Answer => ({ status, headers: { 'cache-control': 'no-store' }, body: { error: code } });

export function token(req: Req, state: SpecState): Answer {
  const body = isObject(req.body) ? req.body : {};
  const { grant_type: grantType, code, client_id: clientId, client_secret: clientSecret } = body;
  if (typeof grantType !== 'string' || typeof clientId !== 'string' || typeof clientSecret !== 'string') return oauthError(400, 'invalid_request');
  const { oauth, otherClient } = state.credentials;
  const client = [oauth, otherClient].find((c) => c.clientId === clientId);
  if (!client || client.clientSecret !== clientSecret) return oauthError(401, 'invalid_client');
  if (grantType !== 'authorization_code') return oauthError(400, 'unsupported_grant_type');
  if (typeof code !== 'string') return oauthError(400, 'invalid_request');
  const issued = state.codes.get(code);
  if (!issued || issued.used || issued.expiresAt < Date.now() || issued.clientId !== clientId) {
    // RFC 6749 §4.1.2: a code used twice SHOULD revoke the tokens issued from it.
    if (issued?.used) for (const revoked of issued.tokens) state.accessTokens.delete(revoked);
    if (issued) issued.used = true;
    return oauthError(400, 'invalid_grant');
  }
  if (body['redirect_uri'] !== undefined && body['redirect_uri'] !== issued.redirectUri) return oauthError(400, 'invalid_grant');
  if (issued.challenge && (typeof body['code_verifier'] !== 'string' || s256(body['code_verifier']) !== issued.challenge)) return oauthError(400, 'invalid_grant');
  issued.used = true;
  const accessToken = newId('at_');
  issued.tokens.push(accessToken);
  state.accessTokens.set(accessToken, { permissions: new Set(issued.scope.split(/\s+/).filter(Boolean)), expiresAt: Date.now() + 3_600_000 });
  return { status: 200, headers: { 'cache-control': 'no-store' }, body: { access_token: accessToken, token_type: 'Bearer', expires_in: 3600, scope: issued.scope } };
}
