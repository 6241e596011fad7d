/**
 * Route-level onRequest guard: `requireAuth({ kinds: ['apiKey', 'accessToken'], scope: 'messages:send' })`.
 * It runs after the global authentication and rate-limit hooks and before the body is parsed, so an
 * unauthenticated request gets its 401 whatever its body, and a refused one never pays for parsing.
 *
 * 401 when there is no usable credential of an accepted kind (RFC 6750 §3: `error="invalid_token"` only when a
 * credential was sent); 403 when the credential is good but lacks the scope.
 */
import type { onRequestHookHandler } from 'fastify';
import { ProblemError } from '../http/problem.ts';
import type { Scope } from '../types.ts';
import type { PrincipalKind } from './principal.ts';

export interface GuardOptions {
  kinds: readonly PrincipalKind[];
  scope?: Scope;
}

export const REALM = 'api';

/** Callback style and synchronous: it runs on every guarded request, and an async hook costs a promise each time. */
export function requireAuth(options: GuardOptions): onRequestHookHandler {
  return (request, _reply, done) => {
    const { principal, credentialSent } = request.auth;
    if (!principal || !options.kinds.includes(principal.kind)) return done(unauthorized(credentialSent));
    if (options.scope && !principal.scopes.has(options.scope)) {
      return done(new ProblemError(403, 'insufficient_scope', {
        detail: `This credential lacks the scope ${options.scope}.`,
        headers: { 'WWW-Authenticate': `Bearer error="insufficient_scope", scope="${options.scope}"` },
      }));
    }
    done();
  };
}

export function unauthorized(credentialSent: boolean): ProblemError {
  return new ProblemError(401, 'unauthorized', {
    detail: credentialSent
      ? 'The credential is invalid, expired, revoked or not accepted by this operation.'
      : 'A Bearer credential is required.',
    headers: {
      'WWW-Authenticate': credentialSent ? `Bearer realm="${REALM}", error="invalid_token"` : `Bearer realm="${REALM}"`,
    },
  });
}
