/**
 * The OAuth2 endpoints as one encapsulated plugin. Encapsulation is what keeps form bodies scoped: the
 * x-www-form-urlencoded parser is registered only here, so every other POST still answers 415 to a form.
 * Body errors on the token endpoint are answered in OAuth form (invalid_request), as RFC 6749 §5.2 expects.
 */
import formbody from '@fastify/formbody';
import type { FastifyPluginAsync } from 'fastify';
import type { TargetContext } from '../context.ts';
import { toProblem } from '../http/error-handler.ts';
import { sendProblem } from '../http/problem.ts';
import { registerAuthorizeRoutes } from './oauth-authorize.ts';
import { registerTokenRoute, sendOAuthError } from './oauth-token.ts';

export const oauthRoutes: FastifyPluginAsync<{ ctx: TargetContext }> = async (app, { ctx }) => {
  await app.register(formbody, { bodyLimit: 64 * 1024 });
  registerAuthorizeRoutes(app, ctx);

  await app.register(async (token) => {
    token.setErrorHandler(async (error, request, reply) => {
      const problem = toProblem(error);
      // Rate limiting and server faults stay problems; anything wrong with the request itself is OAuth's invalid_request.
      if (problem.status === 429 || problem.status >= 500) return sendProblem(reply, problem);
      return sendOAuthError(reply, problem.status, 'invalid_request', problem.detail ?? 'the request is malformed');
    });
    registerTokenRoute(token, ctx);
  });
};
