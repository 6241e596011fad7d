/**
 * Global onRequest hook: recognises the Bearer credential, if any, and records who the request acts for in
 * `request.auth`. It never rejects; routes decide what they need with `requireAuth` (guard.ts). Recognition
 * order: API key, OAuth access token, then user JWT (only for strings shaped like a JWS).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TargetContext } from '../context.ts';
import { parseBearer } from './bearer.ts';
import { looksLikeJwt } from './jwt.ts';
import type { AuthState, Principal } from './principal.ts';

export function installAuthentication(app: FastifyInstance, ctx: TargetContext): void {
  app.decorateRequest('auth', null as unknown as AuthState);
  // Callback style, and synchronous unless a JWT must be verified: API keys and access tokens are map lookups,
  // and an async hook on every request was a measurable share of the send path (bench/reference-target).
  app.addHook('onRequest', (request, _reply, done) => {
    const state = authenticate(request, ctx);
    if (!(state instanceof Promise)) {
      request.auth = state;
      done();
      return;
    }
    state.then((resolved) => {
      request.auth = resolved;
      done();
    }, done);
  });
}

function authenticate(request: FastifyRequest, ctx: TargetContext): AuthState | Promise<AuthState> {
  // Login and token endpoints are "unauthenticated" by definition: whatever is sent, they use the address bucket.
  if (request.routeOptions.config.anonymous) return { principal: null, credentialSent: false };
  const bearer = parseBearer(request.headers.authorization);
  if (bearer.kind === 'none') return { principal: null, credentialSent: false };
  if (bearer.kind === 'malformed') return { principal: null, credentialSent: true };
  const byKey = ctx.apiKeys.lookup(bearer.token) ?? ctx.accessTokens.lookup(bearer.token);
  if (byKey) return { principal: byKey, credentialSent: true };
  if (!looksLikeJwt(bearer.token)) return { principal: null, credentialSent: true };
  return resolveUser(bearer.token, ctx).then((principal) => ({ principal, credentialSent: true }));
}

async function resolveUser(token: string, ctx: TargetContext): Promise<Principal | null> {
  const subject = await ctx.jwt.verify(token);
  const account = subject === null ? undefined : ctx.users.get(subject);
  if (!account) return null;
  return { kind: 'user', id: `user:${account.id}`, scopes: new Set(), quota: 'default', userId: account.id, accountId: account.id };
}
