/**
 * POST /v1/whatsapp/messages (send, scope messages:send) and GET /v1/whatsapp/messages (list received
 * messages, scope messages:read). Both take API keys and OAuth access tokens, never a user JWT (PROFILE.md).
 */
import type { FastifyPluginAsync } from 'fastify';
import { requireAuth } from '../auth/guard.ts';
import type { TargetContext } from '../context.ts';
import { ProblemError } from '../http/problem.ts';
import { isoTime, resourceId } from '../ids.ts';
import { startLifecycle } from '../message-lifecycle.ts';
import type { SendMessageResponse } from '../model.ts';
import type { OutboundMessage } from '../store/outbound-messages.ts';
import { fingerprint, readIdempotencyKey } from './idempotency-key.ts';
import { parseListQuery, type RawQuery } from './list-query.ts';
import { parseSendMessage } from './send-message-body.ts';

export const API_CREDENTIALS = ['apiKey', 'accessToken'] as const;
const PATH = '/v1/whatsapp/messages';

export const messageRoutes: FastifyPluginAsync<{ ctx: TargetContext }> = async (app, { ctx }) => {
  const canSend = requireAuth({ kinds: API_CREDENTIALS, scope: 'messages:send' });
  const canRead = requireAuth({ kinds: API_CREDENTIALS, scope: 'messages:read' });

  app.post(PATH, { onRequest: canSend }, async (request, reply) => {
    const body = parseSendMessage(ctx.validator, request.body);
    const key = readIdempotencyKey(request);
    // Idempotency keys are per credential, and so per account: two clients choosing the same key never see each
    // other's messages, and another account replaying a key gets its own fresh result.
    const principal = request.auth.principal!;
    const scope = `${principal.accountId}\u0000${principal.id}`;
    const print = key === undefined ? '' : fingerprint(body);
    if (key !== undefined) {
      const found = ctx.idempotency.lookup(scope, key, print);
      if (found.kind === 'replay') {
        return reply.code(found.response.status).header('Idempotent-Replayed', 'true').send(found.response.body);
      }
      if (found.kind === 'mismatch') {
        throw new ProblemError(422, 'conflict', {
          detail: 'This Idempotency-Key was already used with a different request body.',
        });
      }
    }

    const now = ctx.now();
    const message: OutboundMessage = {
      id: resourceId('msg', now),
      to: body.to,
      type: body.type ?? 'text',
      status: 'sent',
      timestamp: isoTime(now),
      accountId: principal.accountId,
    };
    ctx.outbound.add(message);
    const response: SendMessageResponse = { id: message.id, status: 'sent', timestamp: message.timestamp };
    if (key !== undefined) ctx.idempotency.save(scope, key, print, { status: 201, body: response });
    startLifecycle(ctx, message);
    return reply.code(201).send(response);
  });

  app.get(PATH, { onRequest: canRead }, async (request, reply) => {
    const accountId = request.auth.principal!.accountId;
    const query = parseListQuery(request.query as RawQuery, ctx.cursors, accountId);
    const page = ctx.inbound.of(accountId).page(query);
    let next: string | null = null;
    if (page.next) next = page.next.cursor ??= ctx.cursors.encode(page.next.key, accountId);
    // Assembled from the items' stored JSON: serialising 20 objects per request was the list's main cost.
    const pagination = JSON.stringify({ next, limit: query.limit });
    return reply.type('application/json; charset=utf-8').send(`{"data":[${page.itemsJson.join(',')}],"pagination":${pagination}}`);
  });
};
