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
  app.addHook('onRequest', async (request) => {
    request.auth = await authenticate(request, ctx);
  });
}

async function authenticate(request: FastifyRequest, ctx: TargetContext): Promise<AuthState> {
  // Login and token endpoints are "unauthenticated" by definition: whatever is sent, they use the address bucket.
  if (request.routeOptions.config.anonymous) return { principal: null, credentialSent: false };
  const bearer = parseBearer(request.headers.authorization);
  if (bearer.kind === 'none') return { principal: null, credentialSent: false };
  if (bearer.kind === 'malformed') return { principal: null, credentialSent: true };
  return { principal: await resolve(bearer.token, ctx), credentialSent: true };
}

async function resolve(token: string, ctx: TargetContext): Promise<Principal | null> {
  const byKey = ctx.apiKeys.lookup(token) ?? ctx.accessTokens.lookup(token);
  if (byKey) return byKey;
  if (!looksLikeJwt(token)) return null;
  const subject = await ctx.jwt.verify(token);
  const account = subject === null ? undefined : ctx.users.get(subject);
  if (!account) return null;
  return { kind: 'user', id: `user:${account.id}`, scopes: new Set(), quota: 'default', userId: account.id };
}
