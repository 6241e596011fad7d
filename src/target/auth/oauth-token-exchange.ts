/**
 * The authorization_code grant at the token endpoint (RFC 6749 §4.1.3, §5; RFC 7636 §4.6), as a function of
 * the request parameters so it is testable without HTTP. Check order: parameters are well-formed
 * (invalid_request) → client authenticates (invalid_client) → grant type (unsupported_grant_type) →
 * code present (invalid_request) → the code itself (invalid_grant).
 */
import type { TargetContext } from '../context.ts';
import { verifyPkce } from './pkce.ts';

export interface TokenSuccess {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  scope: string;
}

export type OAuthErrorCode = 'invalid_request' | 'invalid_client' | 'invalid_grant' | 'unsupported_grant_type';

export interface TokenFailure {
  status: 400 | 401;
  error: OAuthErrorCode;
  description: string;
}

export type TokenResult = { ok: true; body: TokenSuccess } | { ok: false; failure: TokenFailure };

/** Client credentials from HTTP Basic (RFC 6749 §2.3.1), if that header was used. */
export interface BasicCredentials {
  clientId: string;
  clientSecret: string;
}

const fail = (status: 400 | 401, error: OAuthErrorCode, description: string): TokenResult => ({
  ok: false,
  failure: { status, error, description },
});

export function exchangeCode(
  params: Record<string, unknown>,
  basic: BasicCredentials | undefined,
  ctx: TargetContext,
): TokenResult {
  // RFC 6749 §3.2: parameters must not repeat (form bodies turn repeats into arrays) and are strings.
  for (const [name, value] of Object.entries(params)) {
    if (typeof value !== 'string') return fail(400, 'invalid_request', `${name} must be given once, as a string`);
  }
  const p = params as Record<string, string | undefined>;
  if (!p.grant_type) return fail(400, 'invalid_request', 'grant_type is required');
  if (basic && (p.client_id !== undefined || p.client_secret !== undefined)) {
    return fail(400, 'invalid_request', 'use one client authentication method, not both');
  }

  const clientId = basic?.clientId ?? p.client_id;
  const clientSecret = basic?.clientSecret ?? p.client_secret;
  const client = clientId && clientSecret ? ctx.oauthClients.authenticate(clientId, clientSecret) : undefined;
  if (!client) return fail(401, 'invalid_client', 'client authentication failed');

  if (p.grant_type !== 'authorization_code') {
    return fail(400, 'unsupported_grant_type', 'only authorization_code is supported');
  }
  if (!p.code) return fail(400, 'invalid_request', 'code is required');

  const code = ctx.codes.get(p.code);
  if (!code) return fail(400, 'invalid_grant', 'the code is unknown');
  if (code.used) {
    // A replayed code may mean it leaked: revoke what it produced (RFC 6749 §4.1.2, §10.5).
    ctx.accessTokens.revokeByCode(code.id);
    return fail(400, 'invalid_grant', 'the code was already used; tokens issued from it are revoked');
  }
  if (ctx.codes.isExpired(code)) return fail(400, 'invalid_grant', 'the code has expired');
  if (code.clientId !== client.clientId) return fail(400, 'invalid_grant', 'the code was issued to another client');
  // redirect_uri is optional here (SERVICE-SPEC §2.7 does not list it); when sent it must match the one the
  // authorization request carried, and the registered one when that request carried none.
  if (p.redirect_uri !== undefined && p.redirect_uri !== (code.redirectUri ?? client.redirectUri)) {
    return fail(400, 'invalid_grant', 'redirect_uri does not match the authorization request');
  }
  if (code.codeChallenge !== undefined) {
    if (p.code_verifier === undefined || !verifyPkce(p.code_verifier, code.codeChallenge)) {
      return fail(400, 'invalid_grant', 'code_verifier does not match the code_challenge');
    }
  } else if (p.code_verifier !== undefined) {
    // OAuth 2.1 §4.1.3: a verifier for a code issued without a challenge is refused (a downgrade attempt).
    return fail(400, 'invalid_grant', 'the code was issued without a code_challenge');
  }

  code.used = true;
  const issued = ctx.accessTokens.issue({
    clientId: client.clientId,
    userId: code.userId,
    scopes: code.scopes,
    codeId: code.id,
  });
  const scope = [...code.scopes].join(' ');
  return { ok: true, body: { access_token: issued.token, token_type: 'Bearer', expires_in: issued.expiresIn, scope } };
}
