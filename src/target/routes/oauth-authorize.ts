/**
 * The OAuth2 authorization endpoint (RFC 6749 §4.1.1–4.1.2, PKCE per RFC 7636):
 *   GET  /v1/oauth/authorize  → the login-and-consent page (200 text/html)
 *   POST /v1/oauth/authorize  → the user's decision (form or JSON): 302 to redirect_uri with code & state,
 *                               or with error=access_denied.
 * The POST identifies the user by a Bearer user JWT (how the harness automates consent) or by email and
 * password in the form (how a person using the page does); the latter counts toward login throttling.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { REALM } from '../auth/guard.ts';
import { errorRedirect, parseAuthorizeRequest, redirectTo } from '../auth/oauth-authorize-request.ts';
import type { TargetContext } from '../context.ts';
import { ProblemError } from '../http/problem.ts';
import { normalizeEmail } from '../store/users.ts';
import { CONSENT_PAGE_HEADERS, renderConsentPage } from './consent-page.ts';

const PATH = '/v1/oauth/authorize';

export function registerAuthorizeRoutes(app: FastifyInstance, ctx: TargetContext): void {
  app.get(PATH, async (request, reply) => {
    const params = request.query as Record<string, unknown>;
    const parsed = parseAuthorizeRequest(params, ctx.oauthClients);
    if (parsed.kind === 'redirect-error') return redirect(reply, errorRedirect(parsed.redirect));
    return reply
      .headers(CONSENT_PAGE_HEADERS)
      .type('text/html; charset=utf-8')
      .send(renderConsentPage(parsed.request, params));
  });

  app.post(PATH, async (request, reply) => {
    const params = asParams(request.body);
    const parsed = parseAuthorizeRequest(params, ctx.oauthClients);
    const userId = identifyUser(request, params, ctx);
    if (parsed.kind === 'redirect-error') return redirect(reply, errorRedirect(parsed.redirect));
    const { request: authz } = parsed;

    const back = { redirectUri: authz.redirectUri, state: authz.state };
    if (params.decision === 'deny') {
      return redirect(reply, errorRedirect({ ...back, error: 'access_denied', description: 'the user denied the request' }));
    }
    if (params.decision !== 'approve') {
      return redirect(reply, errorRedirect({ ...back, error: 'invalid_request', description: 'decision must be approve or deny' }));
    }
    const code = ctx.codes.issue({
      clientId: authz.client.clientId,
      redirectUri: authz.redirectUriSent,
      userId,
      scopes: authz.scopes,
      codeChallenge: authz.codeChallenge,
    });
    return redirect(reply, redirectTo(authz.redirectUri, { code, state: authz.state }));
  });
}

function redirect(reply: FastifyReply, location: string): FastifyReply {
  return reply.code(302).header('Location', location).header('Cache-Control', 'no-store').send();
}

function asParams(body: unknown): Record<string, unknown> {
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) return body as Record<string, unknown>;
  throw new ProblemError(400, 'validation_failed', {
    detail: 'The consent body must be a form or a JSON object.',
    errors: [{ path: '', message: 'must be an object' }],
  });
}

/** The consenting user's id: from a user JWT, else from email and password in the body; 401 otherwise. */
function identifyUser(request: FastifyRequest, params: Record<string, unknown>, ctx: TargetContext): string {
  const { principal, credentialSent } = request.auth;
  if (principal?.kind === 'user' && principal.userId) return principal.userId;
  if (!credentialSent && typeof params.email === 'string' && typeof params.password === 'string') {
    const email = normalizeEmail(params.email);
    const throttle = ctx.loginThrottle.check(email);
    if (throttle.throttled) {
      throw new ProblemError(429, 'rate_limited', {
        detail: 'Too many failed logins for this account.',
        headers: { 'Retry-After': String(throttle.retryAfterSeconds) },
      });
    }
    const account = ctx.users.authenticate(params.email, params.password);
    if (account) {
      ctx.loginThrottle.reset(email);
      return account.id;
    }
    ctx.loginThrottle.recordFailure(email);
  }
  throw new ProblemError(401, 'unauthorized', {
    detail: 'Consent needs a signed-in user: a user JWT as Bearer credential, or email and password.',
    headers: {
      'WWW-Authenticate': credentialSent ? `Bearer realm="${REALM}", error="invalid_token"` : `Bearer realm="${REALM}"`,
    },
  });
}
