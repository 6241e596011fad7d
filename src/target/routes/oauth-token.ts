/**
 * POST /v1/oauth/token: JSON (as SERVICE-SPEC §2.7 shows) or form-encoded (RFC 6749 §4.1.3). Answers are
 * OAuth bodies, not problem+json — `{access_token, …}` or `{error, error_description}` (RFC 6749 §5.1–5.2) —
 * always with Cache-Control: no-store and Pragma: no-cache.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { exchangeCode, type BasicCredentials } from '../auth/oauth-token-exchange.ts';
import type { TargetContext } from '../context.ts';

const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' } as const;

export function registerTokenRoute(app: FastifyInstance, ctx: TargetContext): void {
  app.post('/v1/oauth/token', { config: { anonymous: true } }, async (request, reply) => {
    const body = request.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      return sendOAuthError(reply, 400, 'invalid_request', 'the body must be a JSON object or a form');
    }
    const basic = parseBasic(request.headers.authorization);
    if (basic === null) return sendOAuthError(reply, 401, 'invalid_client', 'malformed Basic credentials');
    const result = exchangeCode(body as Record<string, unknown>, basic, ctx);
    if (!result.ok) return sendOAuthError(reply, result.failure.status, result.failure.error, result.failure.description);
    return reply.headers(NO_STORE).send(result.body);
  });
}

export function sendOAuthError(reply: FastifyReply, status: number, error: string, description: string): FastifyReply {
  reply.code(status).headers(NO_STORE);
  // RFC 6749 §5.2: invalid_client is a 401 and, being a 401, names the authentication scheme to use.
  if (status === 401) reply.header('WWW-Authenticate', 'Basic realm="oauth", charset="UTF-8"');
  return reply.send({ error, error_description: description });
}

/**
 * Client credentials from `Authorization: Basic` (form-urlencoded id and secret, RFC 6749 §2.3.1).
 * undefined when the header is absent or another scheme; null when it is Basic but unreadable.
 */
export function parseBasic(header: string | undefined): BasicCredentials | undefined | null {
  if (!header || !/^basic(\s|$)/i.test(header)) return undefined;
  const match = /^basic +([A-Za-z0-9+/]+=*) *$/i.exec(header);
  if (!match) return null;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  try {
    const decode = (s: string): string => decodeURIComponent(s.replaceAll('+', ' '));
    return { clientId: decode(decoded.slice(0, colon)), clientSecret: decode(decoded.slice(colon + 1)) };
  } catch {
    return null;
  }
}
