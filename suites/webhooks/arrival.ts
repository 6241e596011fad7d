/**
 * Notifications arrive (SERVICE-SPEC §6: "real-time webhook notifications for incoming messages and for delivery
 * status"). The spec shows neither event names nor payloads, so the MUST checks only ask that a delivery
 * mentioning the message's id arrives; which events and statuses, and their order, are PROFILE.
 */
import { defineCheck } from '../../src/conformance/check.ts';
import { fail, skip } from '../../src/conformance/outcomes.ts';
import type { CheckContext } from '../../src/conformance/context.ts';
import { guarded, requiresCredential, requiresProfile, requiresSandbox } from '../../src/conformance/preconditions.ts';
import type { WebhookReceiver } from '../../src/webhooks/receiver.ts';
import { EXPECTED_STATUSES, mentions, statusEventsOf, waitUntil } from './lib/events.ts';
import { activeSession, remainingMs, webhookTraffic, type Traffic } from '../lib/webhook-session.ts';
import { webhookCheck } from './lib/preconditions.ts';

async function prepared(ctx: CheckContext): Promise<{ receiver: WebhookReceiver; traffic: Traffic }> {
  const { session, reason } = await activeSession(ctx);
  if (!session) skip(reason!);
  return { receiver: session.receiver, traffic: await webhookTraffic(ctx) };
}

async function expectMention(ctx: CheckContext, id: string, what: string): Promise<void> {
  const { receiver, traffic } = await prepared(ctx);
  const arrived = await receiver.waitFor((d) => mentions(d, id), remainingMs(ctx, traffic));
  if (!arrived) {
    fail(`no notification mentioning ${what} ${id} arrived within webhooks.waitSeconds (${ctx.config.webhooks.waitSeconds} s)`, {
      expected: `a delivery whose body contains "${id}"`,
      actual: `${receiver.deliveries.length} deliver${receiver.deliveries.length === 1 ? 'y' : 'ies'} about other things`,
    });
  }
}

export const inboundNotified = guarded(
  defineCheck({
    id: 'webhooks.events.inbound-notified',
    suite: 'webhooks',
    title: 'An incoming message is notified: a delivery mentioning its id arrives at the registered webhook',
    level: 'MUST',
    specRef: 'SERVICE-SPEC §6 ("webhook notifications for incoming messages"), §1 Webhooks',
    clauses: ['§6'],
    async run(ctx) {
      const { traffic } = await prepared(ctx);
      if (!traffic.inbound) skip(`no inbound message could be simulated: ${traffic.problems.join('; ') || 'no sandbox'}`);
      await expectMention(ctx, traffic.inbound.id, 'the incoming message');
    },
  }),
  requiresProfile('webhooks'),
  requiresSandbox,
  requiresCredential('apiKey'),
);

export const statusNotified = webhookCheck(
  defineCheck({
    id: 'webhooks.events.status-notified',
    suite: 'webhooks',
    title: 'The delivery status of a sent message is notified: a delivery mentioning its id arrives',
    level: 'MUST',
    specRef: 'SERVICE-SPEC §6 ("webhook notifications … for delivery status"), §1 Webhooks',
    clauses: ['§6'],
    async run(ctx) {
      const { traffic } = await prepared(ctx);
      if (!traffic.delivered) skip(`no sent message to watch for: ${traffic.problems.join('; ')}`);
      await expectMention(ctx, traffic.delivered.id, 'the sent message');
    },
  }),
);

/** Waits (bounded) until both test messages were notified of every status they go through. */
export async function expectedStatusesArrived(ctx: CheckContext): Promise<{ receiver: WebhookReceiver; traffic: Traffic; missing: string[] }> {
  const { receiver, traffic } = await prepared(ctx);
  const expected = [
    ...(traffic.delivered ? EXPECTED_STATUSES.delivered.map((status) => ({ id: traffic.delivered!.id, status, kind: 'delivered' })) : []),
    ...(traffic.failing ? EXPECTED_STATUSES.failing.map((status) => ({ id: traffic.failing!.id, status, kind: '999 number' })) : []),
  ];
  const missingNow = (deliveries: typeof receiver.deliveries) =>
    expected.filter((e) => !statusEventsOf(deliveries, e.id).some((s) => s.status === e.status)).map((e) => `"${e.status}" of the ${e.kind} message ${e.id}`);
  await waitUntil(receiver, (deliveries) => missingNow(deliveries).length === 0, remainingMs(ctx, traffic));
  return { receiver, traffic, missing: missingNow(receiver.deliveries) };
}

export const everyStatusNotified = webhookCheck(
  defineCheck({
    id: 'webhooks.events.every-status',
    suite: 'webhooks',
    title: 'Every status a message goes through is notified as message.status: sent, delivered, read — or sent, failed for a 999 number',
    level: 'PROFILE',
    specRef: 'PROFILE Webhooks (events message.received, message.status) and Messages (sent → delivered → read, or sent → failed; 999 numbers fail)',
    clauses: ['§6'],
    async run(ctx) {
      const { traffic, missing } = await expectedStatusesArrived(ctx);
      if (!traffic.delivered || !traffic.failing) skip(`no pair of sent messages to watch for: ${traffic.problems.join('; ')}`);
      if (missing.length > 0) {
        fail(`missing message.status notification(s) after ${ctx.config.webhooks.waitSeconds} s: ${missing.join(', ')}`, { expected: EXPECTED_STATUSES, missing });
      }
    },
  }),
);
