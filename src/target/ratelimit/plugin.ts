/**
 * Global onRequest hook, registered right after authentication: one bucket per credential (API key, access
 * token, user JWT) and one per client address for everything else — including requests whose credential is
 * invalid, which therefore never need (or spend) a credential's quota. Rate limiting precedes the route's
 * guard, so a credential that keeps hitting 403 is still throttled, and 401s are throttled per address.
 * Throttled requests consume nothing (see RateLimiter.consume).
 */
import type { FastifyInstance } from 'fastify';
import type { TargetContext } from '../context.ts';
import { ProblemError } from '../http/problem.ts';
import { rateLimitHeaders } from './headers.ts';

export function installRateLimit(app: FastifyInstance, ctx: TargetContext): void {
  // Callback style: the hook is synchronous, and an async hook costs promise allocations on every request.
  app.addHook('onRequest', (request, reply, done) => {
    const principal = request.auth.principal;
    const key = principal ? principal.id : `addr:${request.ip}`;
    const policy = principal ? ctx.policies[principal.quota] : ctx.policies.anonymous;
    const decision = ctx.limiter.consume(key, policy);
    const headers = rateLimitHeaders(decision);
    reply.headers(headers);
    if (!decision.allowed) {
      done(new ProblemError(429, 'rate_limited', {
        detail: `Rate limit of ${policy.quota} requests per ${policy.windowSeconds} s exceeded; `
          + `retry after ${decision.retryAfterSeconds} s.`,
        headers,
      }));
      return;
    }
    done();
  });
}
