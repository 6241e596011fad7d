/**
 * One receiver and one registration serve every check of the suite (ctx.memo), plus one burst of traffic that
 * makes the target notify: an inbound message (sandbox), a message that is delivered and read, and one to a
 * `999…` number that fails (PROFILE Messages). The receiver answers 500 to the first two attempts of every
 * webhook-id, so retries (and their back-off) show up without extra traffic. At the end of the run the
 * registration is deleted if a check did not already, the receiver is closed, and its statistics go to
 * report.json `webhooks`.
 */
import { randomInt } from 'node:crypto';
import type { CheckContext } from '../../src/conformance/context.ts';
import { whatIs } from '../../src/conformance/observed.ts';
import type { HttpResponse } from '../../src/http/client.ts';
import { sendMessage, textMessage } from '../../src/conformance/operations.ts';
import { WebhookReceiver } from '../../src/webhooks/receiver.ts';
import { webhookStats } from '../../src/webhooks/stats.ts';

export const EVENT_TYPES = ['message.received', 'message.status'] as const;

/** Attempts of each webhook-id the receiver answers with 500 on purpose. */
export const FAILED_ATTEMPTS = 2;

export interface WebhookSession {
  receiver: WebhookReceiver;
  /** The registration in use; absent when it could not be made (`problem` says why). */
  hook?: { id?: string; url: string; secret: string; created: boolean };
  /** The answer to the registration request (absent for a pre-registered webhook). */
  createResponse?: HttpResponse;
  problem?: string;
  deleted: boolean;
}

export interface Traffic {
  /** Wall clock when the traffic was sent: the waits of the suite count from here. */
  startedAt: number;
  inbound?: { id: string; text: string };
  delivered?: { id: string };
  failing?: { id: string };
  /** Why a part of the traffic could not be sent. */
  problems: string[];
}

export function waitMs(ctx: CheckContext): number {
  return ctx.config.webhooks.waitSeconds * 1000;
}

export function randomPhone(prefix = '1555'): string {
  let digits = prefix;
  while (digits.length < 11) digits += String(randomInt(10));
  return digits;
}

export function webhookSession(ctx: CheckContext): Promise<WebhookSession> {
  return ctx.memo('webhooks.session', async () => {
    const cfg = ctx.config.webhooks;
    const receiver = await WebhookReceiver.start({
      host: cfg.receiverHost,
      port: cfg.receiverPort,
      maxDeliveries: cfg.maxDeliveries,
      failAttempts: FAILED_ATTEMPTS,
      ...(cfg.publicUrl ? { publicUrl: cfg.publicUrl } : {}),
    });
    const session: WebhookSession = { receiver, deleted: false };
    ctx.atRunEnd(async () => {
      if (session.hook?.created && session.hook.id && !session.deleted) {
        await ctx.http.request({ method: 'DELETE', path: ctx.path('deleteWebhook', { id: session.hook.id }), bearer: ctx.credentials.apiKey }).catch(() => undefined);
      }
      const stats = webhookStats(receiver.deliveries, session.hook ? { secret: session.hook.secret, signingKey: ctx.config.webhooks.signingKey } : {});
      await receiver.close();
      return { webhooks: stats };
    });
    if (cfg.preRegistered) {
      ctx.secrets.add(cfg.preRegistered.secret);
      session.hook = { url: cfg.preRegistered.url, secret: cfg.preRegistered.secret, created: false };
      return session;
    }
    const res = await ctx.http.request({
      method: 'POST',
      path: ctx.path('createWebhook'),
      json: { url: receiver.url, events: [...EVENT_TYPES] },
      bearer: ctx.credentials.apiKey,
    });
    session.createResponse = res;
    const body = res.json<Record<string, unknown>>();
    if (body && typeof body.secret === 'string' && body.secret.length > 0) ctx.secrets.add(body.secret);
    if (res.status < 200 || res.status > 299) session.problem = `registering the receiver answered ${res.status}`;
    else if (!body || typeof body.secret !== 'string' || body.secret.length === 0) session.problem = 'the registration answer carries no "secret"';
    else session.hook = { ...(typeof body.id === 'string' ? { id: body.id } : {}), url: receiver.url, secret: body.secret, created: true };
    return session;
  });
}

/** The registered session, or the reason the check cannot go on (checks call `skip` with it). */
export async function activeSession(ctx: CheckContext): Promise<{ session?: WebhookSession & { hook: NonNullable<WebhookSession['hook']> }; reason?: string }> {
  const session = await webhookSession(ctx);
  if (!session.hook) return { reason: `the harness's receiver could not be registered: ${session.problem ?? 'unknown reason'} (see webhooks.management.create)` };
  return { session: session as WebhookSession & { hook: NonNullable<WebhookSession['hook']> } };
}

/** Sends the suite's traffic once, right after the registration. */
export function webhookTraffic(ctx: CheckContext): Promise<Traffic> {
  return ctx.memo('webhooks.traffic', async () => {
    const traffic: Traffic = { startedAt: Date.now(), problems: [] };
    const sandbox = ctx.config.conformance.sandbox && ctx.config.conformance.profile.sandbox;
    const [inbound, delivered, failing] = await Promise.all([
      sandbox
        ? ctx.http.request({
            method: 'POST',
            path: ctx.path('sandboxInbound'),
            json: { from: randomPhone(), text: `webhook probe ${randomInt(1e9)}` },
            bearer: ctx.credentials.apiKey,
          })
        : undefined,
      sendMessage(ctx, textMessage(randomPhone(), 'webhook probe: delivered and read')),
      sendMessage(ctx, textMessage(randomPhone('999'), 'webhook probe: fails (999 number)')),
    ]);
    const idOf = (res: HttpResponse | undefined, what: string): string | undefined => {
      if (!res) return undefined;
      const body = res.json<Record<string, unknown>>();
      const id = body?.id;
      if (res.status >= 200 && res.status <= 299 && typeof id === 'string') return id;
      // Say what was seen: a success whose id is no string is not a send that failed.
      if (res.status < 200 || res.status > 299) traffic.problems.push(`${what} answered ${res.status}`);
      else traffic.problems.push(`${what} answered ${res.status}, but ${body && typeof body === 'object' ? `its id is ${whatIs(id)}` : 'not with a JSON object'}, not a string id to match deliveries by (the schemas suite reports the field)`);
      return undefined;
    };
    const inboundId = idOf(inbound, 'the sandbox inbound message');
    if (inboundId) traffic.inbound = { id: inboundId, text: String(inbound!.json<Record<string, unknown>>()?.text ?? '') };
    const deliveredId = idOf(delivered, 'sending a message');
    if (deliveredId) traffic.delivered = { id: deliveredId };
    const failingId = idOf(failing, 'sending a message to a 999 number');
    if (failingId) traffic.failing = { id: failingId };
    return traffic;
  });
}

/** Time left until `startedAt + waitSeconds`. */
export function remainingMs(ctx: CheckContext, traffic: Traffic): number {
  return Math.max(0, traffic.startedAt + waitMs(ctx) - Date.now());
}
