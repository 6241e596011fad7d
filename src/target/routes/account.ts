/** GET /v1/account: the signed-in user's account, for a user JWT or an OAuth access token (not an API key). */
import type { FastifyPluginAsync } from 'fastify';
import { requireAuth, unauthorized } from '../auth/guard.ts';
import type { TargetContext } from '../context.ts';

export const accountRoutes: FastifyPluginAsync<{ ctx: TargetContext }> = async (app, { ctx }) => {
  app.get('/v1/account', { onRequest: requireAuth({ kinds: ['user', 'accessToken'] }) }, async (request) => {
    const userId = request.auth.principal?.userId;
    const account = userId === undefined ? undefined : ctx.users.get(userId);
    if (!account) throw unauthorized(true);
    return account;
  });
};
