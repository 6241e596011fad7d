/**
 * The requests the errors suite provokes answers with, built from the config (paths, credentials): each returns
 * the answer to one kind of wrong request, so the checks about statuses, bodies, content types and request ids
 * look at the same exchanges.
 */
import { randomBytes } from 'node:crypto';
import { OPERATION_METHODS as METHODS, type Operation } from '../../../src/config/types.ts';
import type { CheckContext } from '../../../src/conformance/context.ts';
import { sendMessage, textMessage } from '../../../src/conformance/operations.ts';
import type { HttpResponse } from '../../../src/http/client.ts';

/** A method no operation of the harness uses on any path. */
export const WRONG_METHOD = 'PATCH';

export function suffix(): string {
  return randomBytes(6).toString('hex');
}

/** Methods the config says the send-message path serves (with GET, HEAD is implied by RFC 9110 §9.3.2). */
export function knownMethods(ctx: CheckContext, path: string): string[] {
  const methods = new Set<string>();
  for (const [operation, template] of Object.entries(ctx.config.api.paths)) {
    if (template === path) for (const method of METHODS[operation as Operation]) methods.add(method);
  }
  return [...methods].sort();
}

/** No credential at all on the send operation: 401 (SERVICE-SPEC §5 rule 5). */
export function unauthenticated(ctx: CheckContext): Promise<HttpResponse> {
  return sendMessage(ctx, textMessage(), { bearer: undefined });
}

/** A path under the API's version prefix that no operation uses. */
export function unknownPath(ctx: CheckContext): Promise<HttpResponse> {
  const prefix = ctx.path('sendMessage').split('/').slice(0, 2).join('/');
  return ctx.http.request({ method: 'GET', path: `${prefix}/harness-no-such-resource-${suffix()}`, bearer: ctx.credentials.apiKey! });
}

export function wrongMethod(ctx: CheckContext): Promise<HttpResponse> {
  return ctx.http.request({ method: WRONG_METHOD, path: ctx.path('sendMessage'), bearer: ctx.credentials.apiKey! });
}

/** A valid message, but labelled text/plain. */
export function nonJsonContentType(ctx: CheckContext): Promise<HttpResponse> {
  return ctx.http.request({
    method: 'POST',
    path: ctx.path('sendMessage'),
    headers: { 'content-type': 'text/plain; charset=utf-8' },
    body: JSON.stringify(textMessage()),
    bearer: ctx.credentials.apiKey!,
  });
}

/** A message whose JSON text is cut off. */
export function malformedJson(ctx: CheckContext): Promise<HttpResponse> {
  return ctx.http.request({
    method: 'POST',
    path: ctx.path('sendMessage'),
    headers: { 'content-type': 'application/json' },
    body: '{"to": "15551234567", "type": "text", "text": {"body": "cut off',
    bearer: ctx.credentials.apiKey!,
  });
}

/** The media type of a Content-Type value, lower-cased, without parameters. */
export function mediaType(res: HttpResponse): string | undefined {
  return res.header('content-type')?.split(';')[0]?.trim().toLowerCase();
}
