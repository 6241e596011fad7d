/**
 * POST /v1/auth/login {email, password} → 200 {token, expires_in (seconds)}. An unknown email and a wrong
 * password get byte-identical 401 bodies. Failed attempts are throttled per email; while throttled, even the
 * right password gets 429, so guessing cannot continue by interleaving a known-good login.
 */
import type { FastifyPluginAsync } from 'fastify';
import { REALM } from '../auth/guard.ts';
import type { TargetContext } from '../context.ts';
import { ProblemError } from '../http/problem.ts';
import { normalizeEmail } from '../store/users.ts';

interface LoginBody {
  email: string;
  password: string;
}

export const loginRoutes: FastifyPluginAsync<{ ctx: TargetContext }> = async (app, { ctx }) => {
  app.post('/v1/auth/login', { config: { anonymous: true } }, async (request, reply) => {
    ctx.validator.assert('login-request', request.body);
    const body = request.body as LoginBody;
    const email = normalizeEmail(body.email);

    const throttle = ctx.loginThrottle.check(email);
    if (throttle.throttled) {
      throw new ProblemError(429, 'rate_limited', {
        detail: `Too many failed logins for this account; retry after ${throttle.retryAfterSeconds} s.`,
        headers: { 'Retry-After': String(throttle.retryAfterSeconds) },
      });
    }

    const account = ctx.users.authenticate(body.email, body.password);
    if (!account) {
      ctx.loginThrottle.recordFailure(email);
      throw new ProblemError(401, 'invalid_credentials', {
        detail: 'The email or password is incorrect.',
        headers: { 'WWW-Authenticate': `Bearer realm="${REALM}"` },
      });
    }

    ctx.loginThrottle.reset(email);
    const { token, expiresIn } = await ctx.jwt.issue(account.id);
    return reply.header('Cache-Control', 'no-store').send({ token, expires_in: expiresIn });
  });
};
