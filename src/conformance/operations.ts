/**
 * The API's operations as the checks call them: paths, parameter names and credentials come from the config,
 * so the same check runs against any target that describes itself there.
 */
import type { HttpResponse, RequestOptions } from '../http/client.ts';
import { skip } from './outcomes.ts';
import type { CheckContext } from './context.ts';
import { expect2xx } from './expect.ts';

type Extra = Pick<RequestOptions, 'headers' | 'retryOn429' | 'bearer'>;

/** SERVICE-SPEC §2.1's long form. */
export function textMessage(to = '15551234567', body = 'hello from the conformance harness'): Record<string, unknown> {
  return { to, type: 'text', text: { body } };
}

export function sendMessage(ctx: CheckContext, body: unknown, extra: Extra = {}): Promise<HttpResponse> {
  return ctx.http.request({ method: 'POST', path: ctx.path('sendMessage'), json: body, bearer: ctx.credentials.apiKey, ...extra });
}

export function listMessages(ctx: CheckContext, query: Record<string, string | number | undefined> = {}, extra: Extra = {}): Promise<HttpResponse> {
  const names = ctx.config.api.query;
  const mapped: Record<string, string | number | undefined> = {};
  for (const [key, value] of Object.entries(query)) mapped[(names as Record<string, string>)[key] ?? key] = value;
  return ctx.http.request({ method: 'GET', path: ctx.path('listMessages'), query: mapped, bearer: ctx.credentials.apiKey, ...extra });
}

export function login(ctx: CheckContext, body: unknown, extra: Extra = {}): Promise<HttpResponse> {
  return ctx.http.request({ method: 'POST', path: ctx.path('login'), json: body, ...extra });
}

/**
 * The login of a check that judges the login itself: the configured account, a 2xx required, and a token in the
 * answer registered as a secret before anything about the body is judged.
 */
export async function configuredLogin(ctx: CheckContext): Promise<HttpResponse> {
  const { email, password } = ctx.credentials.login!;
  const res = await login(ctx, { email, password });
  expect2xx(res, 'login with the configured account');
  const token = res.json<{ token?: unknown }>()?.token;
  if (typeof token === 'string') ctx.secrets.add(token);
  return res;
}

export function getAccount(ctx: CheckContext, bearer: string | undefined, extra: Extra = {}): Promise<HttpResponse> {
  return ctx.http.request({ method: 'GET', path: ctx.path('account'), ...(bearer !== undefined ? { bearer } : {}), ...extra });
}

/** A token and when it stops being usable (ms since epoch; Infinity when the target does not say). */
export interface IssuedToken {
  token: string;
  expiresAtMs: number;
  /** `nbf` of the token, when it has one (ms since epoch). */
  notBeforeMs?: number;
}

/** Tokens are renewed this long before they expire, so a check never sends one that dies in flight. */
const RENEW_BEFORE_MS = 1000;

/**
 * A JWT from the configured login, shared by every check that needs one and renewed when it is about to
 * expire (the embedded target issues short-lived tokens on purpose). A check that cannot get one is skipped
 * with the true reason; the login checks themselves (auth.jwt.usable-at-issue) report the failure.
 */
export async function obtainJwt(ctx: CheckContext): Promise<string> {
  let issued: IssuedToken | undefined;
  for (let attempt = 0; attempt < 2; attempt++) {
    issued = await ctx.memo('jwt', () => freshJwt(ctx)).catch((err: Error) => skip(`needs a JWT, but ${err.message}`));
    if (unusableReason(issued, Date.now()) === undefined) return issued.token;
    ctx.forget('jwt');
  }
  return skip(`needs a usable JWT, but ${unusableReason(issued!, Date.now())}`);
}

/** Why a just-issued token cannot serve a check (by the harness's clock), or undefined when it can. */
export function unusableReason(issued: IssuedToken, nowMs: number): string | undefined {
  const left = issued.expiresAtMs - nowMs;
  if (left <= 0) return `the login issues a token that is already expired (exp ${Math.ceil(-left / 1000)} s before now by the harness's clock; auth.jwt.usable-at-issue reports it)`;
  if (issued.notBeforeMs !== undefined && issued.notBeforeMs > nowMs + RENEW_BEFORE_MS) {
    return `the login issues a token that is not valid yet (nbf ${Math.ceil((issued.notBeforeMs - nowMs) / 1000)} s after now by the harness's clock; auth.jwt.usable-at-issue reports it)`;
  }
  if (left <= RENEW_BEFORE_MS) return `the login issues tokens that expire ${Math.round(left)} ms after they arrive, too soon to be used`;
  return undefined;
}

/** Logs in with the configured account; the token's lifetime comes from its `exp` claim, else `expires_in`. */
export async function freshJwt(ctx: CheckContext): Promise<IssuedToken> {
  const credentials = ctx.credentials.login;
  if (!credentials) skip('no credentials.login configured for this target');
  const res = await login(ctx, { email: credentials.email, password: credentials.password });
  const body = res.json<{ token?: unknown; expires_in?: unknown }>();
  const token = body?.token;
  if (res.status < 200 || res.status > 299 || typeof token !== 'string') throw new Error(`login answered ${res.status} without a token`);
  ctx.secrets.add(token);
  const claims = jwtClaims(token);
  const exp = claims?.exp;
  const expiresAtMs = typeof exp === 'number' ? exp * 1000 : typeof body?.expires_in === 'number' ? Date.now() + body.expires_in * 1000 : Infinity;
  return { token, expiresAtMs, ...(typeof claims?.nbf === 'number' ? { notBeforeMs: claims.nbf * 1000 } : {}) };
}

/** The claims of a JWS compact token, unverified (the harness never holds the target's key), or undefined. */
export function jwtClaims(token: string): Record<string, unknown> | undefined {
  const part = token.split('.')[1];
  if (!part) return undefined;
  try {
    const claims: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return claims && typeof claims === 'object' ? (claims as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
