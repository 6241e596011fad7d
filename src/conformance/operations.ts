/**
 * The API's operations as the checks call them: paths, parameter names and credentials come from the config,
 * so the same check runs against any target that describes itself there.
 */
import type { HttpResponse, RequestOptions } from '../http/client.ts';
import { skip } from './check.ts';
import type { CheckContext } from './context.ts';

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

export function getAccount(ctx: CheckContext, bearer: string | undefined, extra: Extra = {}): Promise<HttpResponse> {
  return ctx.http.request({ method: 'GET', path: ctx.path('account'), ...(bearer !== undefined ? { bearer } : {}), ...extra });
}

/**
 * A JWT from the configured login, shared by every check that needs one. A check that cannot get one is
 * skipped with the reason (the login checks themselves report the failure).
 */
export async function obtainJwt(ctx: CheckContext): Promise<string> {
  const credentials = ctx.credentials.login;
  if (!credentials) skip('no credentials.login configured for this target');
  const token = await ctx
    .memo('jwt', async () => {
      const res = await login(ctx, { email: credentials.email, password: credentials.password });
      const token = res.json<{ token?: unknown }>()?.token;
      if (res.status < 200 || res.status > 299 || typeof token !== 'string') {
        throw new Error(`login answered ${res.status} without a token`);
      }
      ctx.secrets.add(token);
      return token;
    })
    .catch((err: Error) => skip(`needs a JWT, but ${err.message}`));
  return token;
}
