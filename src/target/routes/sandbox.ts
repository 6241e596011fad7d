/**
 * POST /v1/sandbox/inbound (scope sandbox): simulates a received message — stored for the list and published
 * as `message.received`. This is how the harness seeds pagination data.
 */
import type { FastifyPluginAsync } from 'fastify';
import { requireAuth } from '../auth/guard.ts';
import type { TargetContext } from '../context.ts';
import { validationFailed } from '../http/problem.ts';
import { isoTime, resourceId } from '../ids.ts';
import type { ListedMessage } from '../model.ts';
import { API_CREDENTIALS } from './messages.ts';

interface InboundBody {
  from: string;
  text: string;
  timestamp?: string;
}

export const sandboxRoutes: FastifyPluginAsync<{ ctx: TargetContext }> = async (app, { ctx }) => {
  const guard = requireAuth({ kinds: API_CREDENTIALS, scope: 'sandbox' });

  app.post('/v1/sandbox/inbound', { onRequest: guard }, async (request, reply) => {
    ctx.validator.assert('sandbox-inbound-request', request.body);
    const body = request.body as InboundBody;
    const now = ctx.now();
    // Normalised to millisecond precision: list order and cursors work on milliseconds.
    const at = body.timestamp === undefined ? now : Date.parse(body.timestamp);
    // The schema admits leap seconds (":60"), which Date cannot represent.
    if (!Number.isFinite(at)) {
      throw validationFailed([{ path: '/timestamp', message: 'must be a representable date-time' }]);
    }
    const message: ListedMessage = {
      id: resourceId('msg', at),
      from: body.from,
      text: body.text,
      timestamp: isoTime(at),
    };
    // The sandbox key's account received it (PROFILE.md "Accounts, ownership and exposure").
    const accountId = request.auth.principal!.accountId;
    ctx.inbound.of(accountId).add(message);
    ctx.events.emit('message.received', message, accountId);
    return reply.code(201).send(message);
  });
};
