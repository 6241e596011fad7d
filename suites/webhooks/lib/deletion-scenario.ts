/**
 * The deletion, done once for the two checks that judge it: a fresh message is sent, its first notification
 * arrives (and is answered 500 on purpose, so a retry is pending at the target), then the webhook is deleted.
 * From the delete's answer on, nothing may arrive — neither new events nor retries of old ones.
 */
import type { CheckContext } from '../../../src/conformance/context.ts';
import type { HttpResponse } from '../../../src/http/client.ts';
import { sendMessage, textMessage } from '../../../src/conformance/operations.ts';
import { mentions } from './events.ts';
import { activeSession, randomPhone, waitMs, type WebhookSession } from '../../lib/webhook-session.ts';

export interface Deletion {
  /** Why the deletion could not be done (the checks skip with it). */
  reason?: string;
  id?: string;
  response?: HttpResponse;
  /** Wall clock when the delete was answered. */
  answeredAt?: number;
  session?: WebhookSession;
}

export function deletion(ctx: CheckContext): Promise<Deletion> {
  return ctx.memo('webhooks.deletion', async (): Promise<Deletion> => {
    const { session, reason } = await activeSession(ctx);
    if (!session) return { reason };
    const id = session.hook.id;
    if (!session.hook.created || !id) return { reason: 'the webhook was not registered through the management endpoints, or its id is unknown' };
    const sent = await sendMessage(ctx, textMessage(randomPhone(), 'webhook probe: sent just before the webhook is deleted'));
    const messageId = sent.json<Record<string, unknown>>()?.id;
    if (typeof messageId === 'string') await session.receiver.waitFor((d) => mentions(d, messageId), waitMs(ctx));
    const response = await ctx.http.request({ method: 'DELETE', path: ctx.path('deleteWebhook', { id }), bearer: ctx.credentials.apiKey });
    const answeredAt = Date.now();
    if (response.status >= 200 && response.status <= 299) session.deleted = true;
    return { id, response, answeredAt, session };
  });
}
