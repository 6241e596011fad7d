/**
 * Sends generated bodies to an operation, a few at a time, with the credential whose quota does not bind
 * (credentials.loadKey) when there is one, else the API key through the polite client. Created webhooks are
 * deleted at once, so no generated URL stays registered.
 */
import type { CheckContext } from '../../../src/conformance/context.ts';
import { withPrecondition } from '../../../src/conformance/preconditions.ts';
import type { HttpResponse } from '../../../src/http/client.ts';
import type { BodyOperation, GeneratedBody } from './generate-bodies.ts';

const CONCURRENCY = 8;

export interface Sent {
  generated: GeneratedBody;
  res: HttpResponse;
  /** Size of the JSON text sent, in bytes. */
  bytes: number;
}

export const requiresSendingKey = withPrecondition((ctx) =>
  ctx.credentials.loadKey || ctx.credentials.apiKey ? undefined : 'no credentials.loadKey or credentials.apiKey configured for this target',
);

function bearerFor(ctx: CheckContext, operation: BodyOperation): string | undefined {
  return operation === 'login' ? undefined : (ctx.credentials.loadKey ?? ctx.credentials.apiKey);
}

export async function sendBodies(ctx: CheckContext, operation: BodyOperation, bodies: readonly GeneratedBody[]): Promise<Sent[]> {
  const bearer = bearerFor(ctx, operation);
  const results: Sent[] = new Array(bodies.length);
  let next = 0;
  const worker = async () => {
    while (next < bodies.length) {
      const index = next++;
      const generated = bodies[index]!;
      const text = JSON.stringify(generated.body);
      const res = await ctx.http.request({
        method: 'POST',
        path: ctx.path(operation),
        headers: { 'content-type': 'application/json' },
        body: text,
        ...(bearer !== undefined ? { bearer } : {}),
      });
      if (operation === 'createWebhook') await forgetWebhook(ctx, generated, res, bearer);
      results[index] = { generated, res, bytes: Buffer.byteLength(text) };
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, bodies.length) }, worker));
  return results;
}

async function forgetWebhook(ctx: CheckContext, generated: GeneratedBody, res: HttpResponse, bearer: string | undefined): Promise<void> {
  const sentSecret = (generated.body as { secret?: unknown } | null)?.secret;
  if (typeof sentSecret === 'string') ctx.secrets.add(sentSecret);
  const created = res.json<{ id?: unknown; secret?: unknown }>();
  if (typeof created?.secret === 'string') ctx.secrets.add(created.secret);
  if (res.status >= 200 && res.status < 300 && typeof created?.id === 'string') {
    await ctx.http.request({ method: 'DELETE', path: ctx.path('deleteWebhook', { id: created.id }), ...(bearer !== undefined ? { bearer } : {}) });
  }
}

/** The problem detail (or title) of an answer, for a failure line. */
export function detailOf(res: HttpResponse): string | undefined {
  const body = res.json<Record<string, unknown>>();
  const detail = body && typeof body === 'object' ? (body.detail ?? body.title ?? body.error) : undefined;
  return typeof detail === 'string' ? detail.slice(0, 120) : undefined;
}
