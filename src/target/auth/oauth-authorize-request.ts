/**
 * Validation of an authorization request (RFC 6749 §4.1.1, RFC 7636 §4.3), shared by the GET page and the
 * POST consent. Order matters (RFC 6749 §4.1.2.1): a bad client_id or redirect_uri is answered to the user
 * directly (400, never a redirect — it could be an open redirector); only then are the other parameters
 * checked, and their errors go back to the client through its redirect URI.
 */
import { ProblemError } from '../http/problem.ts';
import { SCOPES, type Scope } from '../types.ts';
import type { OAuthClient, OAuthClientRegistry } from './oauth-clients.ts';
import { PKCE_VALUE } from './pkce.ts';

/** Used when the request has no `scope` (RFC 6749 §3.3 allows a documented default). */
export const DEFAULT_SCOPE = 'messages:send messages:read';

export interface AuthorizeRequest {
  client: OAuthClient;
  /** Where to send the user back: the registered URI. */
  redirectUri: string;
  /** The redirect_uri as sent, if it was: the token request must then repeat it (RFC 6749 §4.1.3). */
  redirectUriSent: string | undefined;
  scopes: ReadonlySet<Scope>;
  state: string | undefined;
  codeChallenge: string | undefined;
}

export interface RedirectError {
  redirectUri: string;
  error: 'invalid_request' | 'unsupported_response_type' | 'invalid_scope' | 'access_denied';
  description: string;
  state: string | undefined;
}

export type AuthorizeParse =
  | { kind: 'ok'; request: AuthorizeRequest }
  | { kind: 'redirect-error'; redirect: RedirectError };

/** Throws a 400 problem for client/redirect errors; returns redirect errors for the rest. */
export function parseAuthorizeRequest(params: Record<string, unknown>, clients: OAuthClientRegistry): AuthorizeParse {
  const clientId = params.client_id;
  const client = typeof clientId === 'string' ? clients.get(clientId) : undefined;
  if (!client) {
    throw new ProblemError(400, 'invalid_client', { detail: 'client_id is missing or not a registered client.' });
  }
  const sentUri = params.redirect_uri;
  if (sentUri !== undefined && sentUri !== client.redirectUri) {
    throw new ProblemError(400, 'invalid_redirect_uri', {
      detail: 'redirect_uri is not registered for this client.',
    });
  }

  const state = typeof params.state === 'string' ? params.state : undefined;
  const fail = (error: RedirectError['error'], description: string): AuthorizeParse => ({
    kind: 'redirect-error',
    redirect: { redirectUri: client.redirectUri, error, description, state },
  });

  // A repeated parameter arrives as an array; RFC 6749 §3.1 forbids repeating any of them.
  const repeated = Object.entries(params).find(([, value]) => Array.isArray(value));
  if (repeated) return fail('invalid_request', `${repeated[0]} must not be repeated`);
  if (params.state !== undefined && state === undefined) return fail('invalid_request', 'state must be a string');

  if (params.response_type === undefined) return fail('invalid_request', 'response_type is required');
  if (params.response_type !== 'code') return fail('unsupported_response_type', 'only response_type=code is supported');

  const scopeParam = params.scope ?? DEFAULT_SCOPE;
  if (typeof scopeParam !== 'string') return fail('invalid_request', 'scope must be a string');
  const requested = scopeParam.split(' ').filter((s) => s.length > 0);
  const unknown = requested.filter((s) => !(SCOPES as readonly string[]).includes(s));
  if (requested.length === 0 || unknown.length > 0) {
    return fail('invalid_scope', `unknown scope: ${unknown.join(' ') || '(empty)'}`);
  }

  const challenge = params.code_challenge;
  const method = params.code_challenge_method;
  if (challenge === undefined && method !== undefined) {
    return fail('invalid_request', 'code_challenge is required with code_challenge_method');
  }
  // RFC 7636 §4.3: a missing method means "plain", which this server does not support.
  if (challenge !== undefined && method !== 'S256') {
    return fail('invalid_request', 'code_challenge_method must be S256');
  }
  if (challenge !== undefined && (typeof challenge !== 'string' || !PKCE_VALUE.test(challenge))) {
    return fail('invalid_request', 'code_challenge must be 43-128 characters of [A-Za-z0-9-._~]');
  }

  return {
    kind: 'ok',
    request: {
      client,
      redirectUri: client.redirectUri,
      redirectUriSent: typeof sentUri === 'string' ? sentUri : undefined,
      scopes: new Set(requested as Scope[]),
      state,
      codeChallenge: typeof challenge === 'string' ? challenge : undefined,
    },
  };
}

/** The redirect URI with `extra` added to its query, keeping any query it already has. */
export function redirectTo(uri: string, extra: Record<string, string | undefined>): string {
  const url = new URL(uri);
  for (const [key, value] of Object.entries(extra)) if (value !== undefined) url.searchParams.set(key, value);
  return url.toString();
}

export function errorRedirect(redirect: RedirectError): string {
  return redirectTo(redirect.redirectUri, {
    error: redirect.error,
    error_description: redirect.description,
    state: redirect.state,
  });
}
