/**
 * Webhook registrations the security checks make, and undo at once. TRAFFIC SAFETY: a check registers, reads the
 * answer and deletes what was accepted before it returns; it sends nothing in between (no message, no inbound),
 * so no event can make the target deliver to an address it should have refused. The harness itself never
 * connects to the URLs it registers.
 */
import type { CheckContext } from '../../../src/conformance/context.ts';
import { withPrecondition } from '../../../src/conformance/preconditions.ts';
import type { HttpResponse } from '../../../src/http/client.ts';

/** One event type is enough: the registration is deleted before any event could happen. */
export const PROBE_EVENTS = ['message.received'] as const;

export interface Registration {
  url: string;
  response: HttpResponse;
  accepted: boolean;
  /** Why an accepted registration is still there (no id in the answer, or the delete failed). */
  leftBehind?: string;
}

/** Registers `url` with `extra` fields, and deletes the registration at once when the target took it. */
export async function registerAndUndo(ctx: CheckContext, url: string, extra: Record<string, unknown> = {}): Promise<Registration> {
  const response = await ctx.http.request({ method: 'POST', path: ctx.path('createWebhook'), json: { url, events: [...PROBE_EVENTS], ...extra }, bearer: ctx.credentials.apiKey });
  const accepted = response.status >= 200 && response.status < 300;
  if (!accepted) return { url, response, accepted };
  const body = response.json<Record<string, unknown>>();
  if (body && typeof body.secret === 'string') ctx.secrets.add(body.secret);
  const leftBehind = await undo(ctx, body && typeof body.id === 'string' ? body.id : undefined);
  return { url, response, accepted, ...(leftBehind ? { leftBehind } : {}) };
}

/** Deletes a registration; the reason it could not, or undefined. */
export async function undo(ctx: CheckContext, id: string | undefined): Promise<string | undefined> {
  if (!id) return 'the answer carried no id to delete it by: delete it by hand';
  const res = await ctx.http.request({ method: 'DELETE', path: ctx.path('deleteWebhook', { id }), bearer: ctx.credentials.apiKey });
  return res.status >= 200 && res.status < 300 ? undefined : `its delete answered ${res.status}: delete webhook ${id} by hand`;
}

/** The webhook management endpoints are in use (not a webhook registered by hand). */
export const requiresWebhookManagement = withPrecondition((ctx) =>
  !ctx.config.conformance.profile.webhooks
    ? 'PROFILE area "webhooks" is switched off in the config'
    : ctx.config.webhooks.preRegistered
      ? 'webhooks.preRegistered is set: the webhook was registered by hand, so the management endpoints are not used'
      : !ctx.credentials.apiKey
        ? 'no credentials.apiKey configured for this target'
        : undefined,
);
