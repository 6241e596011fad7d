/**
 * Webhook management, scope webhooks:manage: POST /v1/webhooks, GET /v1/webhooks, DELETE /v1/webhooks/{id}.
 * Only the registry lives here; delivery subscribes to the event bus and reads WebhookStore.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import { requireAuth } from '../auth/guard.ts';
import type { TargetContext } from '../context.ts';
import { ProblemError } from '../http/problem.ts';
import { isoTime, resourceId } from '../ids.ts';
import type { Webhook, WebhookEventType } from '../model.ts';
import { API_CREDENTIALS } from './messages.ts';

const PATH = '/v1/webhooks';

interface WebhookBody {
  url: string;
  events: WebhookEventType[];
  secret?: string;
}

/** Standard Webhooks secret format: `whsec_` + base64 of the key bytes. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

export const webhookRoutes: FastifyPluginAsync<{ ctx: TargetContext }> = async (app, { ctx }) => {
  const guard = requireAuth({ kinds: API_CREDENTIALS, scope: 'webhooks:manage' });

  app.post(PATH, { onRequest: guard }, async (request, reply) => {
    ctx.validator.assert('webhook-request', request.body);
    const body = request.body as WebhookBody;
    // OWASP API7: a URL the policy refuses is never stored, so nothing is ever sent to it.
    const decision = ctx.webhookPolicy.check(body.url);
    if (!decision.ok) {
      throw new ProblemError(422, 'webhook_url_refused', {
        detail: `The webhook URL is refused: ${decision.reason}.`,
        errors: [{ path: '/url', message: decision.reason }],
      });
    }
    if (ctx.webhooks.full) {
      throw new ProblemError(422, 'webhook_limit_reached', { detail: `At most ${ctx.webhooks.capacity} webhooks can be registered; delete one first.` });
    }
    const now = ctx.now();
    const hook: Webhook = {
      id: resourceId('wh', now),
      url: body.url,
      events: [...body.events],
      secret: body.secret ?? generateWebhookSecret(),
      created_at: isoTime(now),
    };
    ctx.webhooks.add(hook, request.auth.principal!.accountId);
    return reply.code(201).header('Location', `${PATH}/${hook.id}`).send(hook);
  });

  // The secret is shown once, in the create answer (PROFILE.md "Accounts, ownership and exposure"): a list is read
  // by every key that may manage webhooks, and each signing secret would leak to all of them.
  app.get(PATH, { onRequest: guard }, async (request) => ({
    data: ctx.webhooks.list(request.auth.principal!.accountId).map(({ id, url, events, created_at }) => ({ id, url, events, created_at })),
  }));

  app.delete<{ Params: { id: string } }>(`${PATH}/:id`, { onRequest: guard }, async (request, reply) => {
    // Another account's webhook is answered exactly like an unknown id, and stays registered.
    if (!ctx.webhooks.remove(request.params.id, request.auth.principal!.accountId)) {
      throw new ProblemError(404, 'not_found', { detail: 'No webhook with this id.' });
    }
    return reply.code(204).send();
  });
};
