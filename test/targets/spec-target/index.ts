/**
 * A second independent target, written from SERVICE-SPEC.md alone — not from PROFILE.md, not from schemas/api,
 * not on top of the reference target. Where the spec speaks it follows the spec; where it says "not shown" it
 * made its own legal choices, which test/fixtures/spec-target/harness.config.yaml describes:
 *
 *   point (spec says "not shown")    this target
 *   -------------------------------  ---------------------------------------------------------------------------
 *   success statuses                 send 202, campaign 202, test inbound 200, webhook 201, delete 204
 *   field rules                      `to` 8–15 digits; text up to 10,000 chars; extra properties ignored
 *   error body                       application/json {"message", "field"?}; rejected input 400; not found 404,
 *                                    also for a wrong method (no 405); a non-JSON body is a 400 (no 415)
 *   list                             per_page (default 25, max 200) + page_token; from/since/until filters
 *   rate limit                       fixed window per credential (anonymous: per address), 40 per 2 s;
 *                                    X-RateLimit-Limit / -Remaining only (no reset, no window); 429 + Retry-After
 *   JWT                              HS256, iss/aud/exp; lifetime `expires_in` seconds (default 4)
 *   OAuth2                           authorize at /v1/oauth2/auth, consent by POST with the account's JWT
 *   webhooks                         /v1/hooks; Standard Webhooks headers, HMAC keyed by the secret's RAW bytes
 *   not implemented                  idempotency keys, media/template messages, login throttling, X-Request-Id
 *
 * Variants seed one fault (or one legal oddity) each, for the verdict tests:
 *   static-token       login returns a token that expired before it was issued (SERVICE-SPEC §5 rule 2, §2.6)
 *   any-password       login hands a token to anyone who knows the email (§5 rules 2 and 5)
 *   never-throttle     claims 60 requests per 60 s in its headers (the config states the window) and never 429s
 *   lying-retry-after  9 s window, but every 429 says Retry-After: 1
 *   long-token         tokens live 24 h (a correct target: expiry can only be tested with a shared signing key)
 *   endless-next       next is never null: the page after the last item is empty and hands its cursor back (a
 *                      PROFILE fault only: SERVICE-SPEC §2.4 types next as a string and does not say how the end is marked)
 *   static-page        like an OpenAPI mock, the list ignores its cursor: every page is the first, with the same next
 *   verbatim-url       stores and answers a webhook URL as it was sent once it parses, unpaired surrogate and all (a
 *                      legal choice: WHATWG URL parsing takes it, and no document says to refuse or normalise it)
 *   inclusive-cursor   the page after a cursor starts at the item it names (that item is listed twice)
 *   numeric-id         the send works, but its answer carries the id as a number (§2.2 shows a string)
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Deliveries } from './deliveries.ts';
import { error, readRequest, send, bearerOf, type Answer, type Req } from './http.ts';
import { account, authorize, AUTHORIZE_PATH, login, token, unauthorized } from './routes-auth.ts';
import { createCampaign, createHook, deleteHook, getCampaign, listHooks, listMessages, sendMessage, testInbound } from './routes-data.ts';
import { newCredentials, SpecState, type Permission, type SpecCredentials } from './state.ts';

export type SpecVariant = 'correct' | 'static-token' | 'any-password' | 'never-throttle' | 'lying-retry-after' | 'long-token' | 'endless-next' | 'static-page' | 'verbatim-url' | 'inclusive-cursor' | 'numeric-id';

export interface SpecTargetOptions {
  variant?: SpecVariant;
  /** @default 40 per 2 s (lying-retry-after: 40 per 9 s) */
  rateLimit?: { quota: number; windowSeconds: number };
  /** @default 4 (long-token: 86400) */
  jwtTtlSeconds?: number;
  /** Listed messages present from the start (a target without a usable sandbox still has a list to page). @default 0 */
  preloaded?: number;
}

export interface StartedSpecTarget {
  baseUrl: string;
  credentials: SpecCredentials;
  variant: SpecVariant;
  rateLimit: { quota: number; windowSeconds: number };
  close(): Promise<void>;
}

/** The claimed policy of the never-throttle variant (its config repeats it). */
export const NEVER_THROTTLE_CLAIM = { quota: 60, windowSeconds: 60 } as const;

export async function startSpecTarget(options: SpecTargetOptions = {}): Promise<StartedSpecTarget> {
  const variant = options.variant ?? 'correct';
  const rateLimit = options.rateLimit ?? { quota: 40, windowSeconds: variant === 'lying-retry-after' ? 9 : 2 };
  const state = new SpecState(newCredentials(), options.jwtTtlSeconds ?? (variant === 'long-token' ? 86_400 : 4));
  const deliveries = new Deliveries(state);
  for (let i = 0; i < (options.preloaded ?? 0); i++) state.addInbound(`4420700${String(i).padStart(5, '0')}`, `preloaded ${i}`, new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString());
  const limiter = new FixedWindow(variant === 'never-throttle' ? NEVER_THROTTLE_CLAIM : rateLimit);

  const server: Server = createServer((incoming, outgoing) => {
    void readRequest(incoming).then(async (req) => {
      if (req === 'too-large') return send(outgoing, error(413, 'body too large'), {});
      const window = limiter.take(bearerOf(req) ?? `ip:${req.address}`);
      const headers = { 'x-ratelimit-limit': String(window.quota), 'x-ratelimit-remaining': String(Math.max(0, window.remaining)) };
      if (window.remaining < 0 && variant !== 'never-throttle') {
        const retryAfter = variant === 'lying-retry-after' ? 1 : window.resetSeconds;
        return send(outgoing, error(429, 'too many requests', undefined, { 'retry-after': String(retryAfter) }), headers);
      }
      const answer = await route(req, state, deliveries, variant).catch(() => error(500, 'internal error'));
      send(outgoing, answer, headers);
    });
  });
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    credentials: state.credentials,
    variant,
    rateLimit: variant === 'never-throttle' ? { ...NEVER_THROTTLE_CLAIM } : rateLimit,
    async close() {
      deliveries.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function route(req: Req, state: SpecState, deliveries: Deliveries, variant: SpecVariant): Promise<Answer> {
  const method = req.method === 'HEAD' ? 'GET' : req.method;
  const key = `${method} ${req.path.replace(/^(\/v1\/(?:email\/campaigns|hooks))\/[^/]+$/, '$1/:id')}`;
  const id = req.path.split('/').at(-1) ?? '';
  const guarded = (permission: Permission, handler: () => Answer | Promise<Answer>): Answer | Promise<Answer> => {
    const denied = permit(req, state, permission);
    if (denied) return denied;
    return req.malformed ? error(400, 'the body is not valid JSON') : handler();
  };
  switch (key) {
    case 'POST /v1/whatsapp/messages':
      return guarded('messages:send', () => sendMessage(req, state, deliveries, variant === 'numeric-id'));
    case 'GET /v1/whatsapp/messages':
      return guarded('messages:read', () => listMessages(req, state, variant));
    case 'POST /v1/test/inbound':
      return guarded('sandbox', () => testInbound(req, state, deliveries));
    case 'POST /v1/email/campaigns':
      return guarded('campaigns:write', () => createCampaign(req, state));
    case 'GET /v1/email/campaigns/:id':
      return guarded('campaigns:write', () => getCampaign(id, state));
    case 'POST /v1/hooks':
      return guarded('webhooks:manage', () => createHook(req, state, variant === 'verbatim-url'));
    case 'GET /v1/hooks':
      return guarded('webhooks:manage', () => listHooks(state));
    case 'DELETE /v1/hooks/:id':
      return guarded('webhooks:manage', () => deleteHook(id, state));
    case 'POST /v1/auth/login':
      return req.malformed ? error(400, 'the body is not valid JSON') : login(req, state, variant);
    case 'GET /v1/account':
      return account(req, state);
    case `GET ${AUTHORIZE_PATH}`:
    case `POST ${AUTHORIZE_PATH}`:
      return authorize(req, state);
    case 'POST /v1/oauth/token':
      return req.malformed ? { status: 400, body: { error: 'invalid_request' } } : token(req, state);
    default:
      return error(404, `nothing at ${req.method} ${req.path}`);
  }
}

/** undefined when the credential may do it; else the 401 or 403 answer (SERVICE-SPEC §5 rule 5, §7). */
function permit(req: Req, state: SpecState, permission: Permission): Answer | undefined {
  const credential = bearerOf(req);
  if (!credential) return unauthorized(false);
  const granted = state.keyPermissions.get(credential) ?? liveAccessToken(state, credential);
  if (!granted) return unauthorized(true);
  if (!granted.has(permission)) {
    return error(403, `this credential lacks the ${permission} permission`, undefined, { 'www-authenticate': `Bearer error="insufficient_scope", scope="${permission}"` });
  }
  return undefined;
}

function liveAccessToken(state: SpecState, credential: string): Set<string> | undefined {
  const access = state.accessTokens.get(credential);
  return access && access.expiresAt > Date.now() ? access.permissions : undefined;
}

/** Fixed window per key; `remaining` goes negative once the quota is spent. */
class FixedWindow {
  readonly #windows = new Map<string, { start: number; used: number }>();
  constructor(private readonly policy: { quota: number; windowSeconds: number }) {}

  take(key: string): { quota: number; remaining: number; resetSeconds: number } {
    const now = Date.now();
    const windowMs = this.policy.windowSeconds * 1000;
    let window = this.#windows.get(key);
    if (!window || now - window.start >= windowMs) {
      window = { start: now, used: 0 };
      this.#windows.set(key, window);
    }
    window.used++;
    return { quota: this.policy.quota, remaining: this.policy.quota - window.used, resetSeconds: Math.max(1, Math.ceil((window.start + windowMs - now) / 1000)) };
  }
}
