/**
 * Retries (PROFILE Webhooks: "a delivery answered with a non-2xx status … is retried with exponential back-off …
 * with the same webhook-id each time"). The receiver answers the first FAILED_ATTEMPTS attempts of every
 * webhook-id with 500, so each event of the suite's traffic should arrive at least FAILED_ATTEMPTS + 1 times.
 * Events are told apart by what they are about (type, message, status), not by their id, so a target that
 * changes the id on a retry is caught instead of looking like a new event.
 */
import { defineCheck, fail, skip } from '../../src/conformance/check.ts';
import type { CheckContext } from '../../src/conformance/context.ts';
import { guarded, requiresCredential, requiresProfile } from '../../src/conformance/preconditions.ts';
import type { ReceivedDelivery } from '../../src/webhooks/receiver.ts';
import { expectedStatusesArrived } from './arrival.ts';
import { byIdentity, describeDelivery, waitUntil } from './events.ts';
import { activeSession, remainingMs, webhookTraffic } from './session.ts';

/** Each wait between attempts must be at least this many times the one before. */
const GROWTH = 1.2;

/** Groups of one event whose attempts include a retry after a failed (non-2xx) answer. */
function retried(deliveries: readonly ReceivedDelivery[], attempts: number): ReceivedDelivery[][] {
  return [...byIdentity(deliveries).values()].filter((group) => group.length >= attempts && group.slice(0, attempts - 1).every((d) => d.answered >= 300));
}

/** Waits (bounded by webhooks.waitSeconds from the traffic) until some event arrived `attempts` times. */
async function retriedEvents(ctx: CheckContext, attempts: number): Promise<ReceivedDelivery[][]> {
  const { session, reason } = await activeSession(ctx);
  if (!session) skip(reason!);
  const traffic = await webhookTraffic(ctx);
  await waitUntil(session.receiver, (deliveries) => retried(deliveries, attempts).length > 0, remainingMs(ctx, traffic));
  return retried(session.receiver.deliveries, attempts);
}

export const retriedAfterFailure = guarded(
  defineCheck({
    id: 'webhooks.retries.after-failure',
    suite: 'webhooks',
    title: 'A delivery answered 500 is retried',
    level: 'PROFILE',
    specRef: 'PROFILE Webhooks ("a delivery answered with a non-2xx status or not answered within 5 s is retried")',
    clauses: ['§6'],
    async run(ctx) {
      const groups = await retriedEvents(ctx, 2);
      if (groups.length === 0) {
        fail(`no event was delivered again within webhooks.waitSeconds (${ctx.config.webhooks.waitSeconds} s) after the receiver answered 500`, {
          expected: 'a second attempt of an event answered 500',
          actual: 'no retry (raise webhooks.waitSeconds if the target waits longer before its first retry)',
        });
      }
    },
  }),
  requiresProfile('webhooks'),
  requiresCredential('apiKey'),
);

export const idStableAcrossRetries = guarded(
  defineCheck({
    id: 'webhooks.ids.stable-across-retries',
    suite: 'webhooks',
    title: 'Every attempt of one event carries the same webhook-id',
    level: 'PROFILE',
    specRef: 'PROFILE Webhooks ("with the same webhook-id each time"); Standard Webhooks spec (webhook-id is the idempotency key)',
    clauses: ['§6'],
    async run(ctx) {
      const groups = await retriedEvents(ctx, 2);
      if (groups.length === 0) skip('no retry was observed (see webhooks.retries.after-failure)');
      const changed = groups.filter((group) => new Set(group.map((d) => d.headers['webhook-id'])).size > 1);
      if (changed.length > 0) {
        fail(`${changed.length} of ${groups.length} retried event(s) changed webhook-id between attempts`, {
          expected: 'the same webhook-id on every attempt',
          actual: changed.slice(0, 5).map((group) => group.map((d) => describeDelivery(d))),
        });
      }
    },
  }),
  requiresProfile('webhooks'),
  requiresCredential('apiKey'),
);

export const idUniquePerEvent = guarded(
  defineCheck({
    id: 'webhooks.ids.unique-per-event',
    suite: 'webhooks',
    title: 'Different events never share a webhook-id',
    level: 'PROFILE',
    specRef: 'PROFILE Webhooks (webhook-id); Standard Webhooks spec ("webhook-id: the unique message identifier")',
    clauses: ['§6'],
    async run(ctx) {
      const { receiver } = await expectedStatusesArrived(ctx);
      const events = new Map<string, Set<string>>();
      for (const [identity, group] of byIdentity(receiver.deliveries)) {
        for (const d of group) {
          const id = d.headers['webhook-id'];
          if (id !== undefined) events.set(id, (events.get(id) ?? new Set()).add(identity));
        }
      }
      if (events.size === 0) skip('no delivery with a webhook-id arrived (see webhooks.signature.valid)');
      const shared = [...events].filter(([, identities]) => identities.size > 1);
      if (shared.length > 0) {
        fail(`${shared.length} webhook-id(s) were used for more than one event`, {
          expected: 'one webhook-id per event',
          actual: shared.slice(0, 5).map(([id, identities]) => ({ webhookId: id, events: [...identities] })),
        });
      }
    },
  }),
  requiresProfile('webhooks'),
  requiresCredential('apiKey'),
);

export const retriesBackOff = guarded(
  defineCheck({
    id: 'webhooks.retries.back-off',
    suite: 'webhooks',
    title: 'Retries back off: each wait between attempts of one event is longer than the one before',
    level: 'PROFILE',
    specRef: 'PROFILE Webhooks ("retried with exponential back-off")',
    clauses: ['§6'],
    async run(ctx) {
      const groups = await retriedEvents(ctx, 3);
      if (groups.length === 0) skip(`no event was attempted three times within webhooks.waitSeconds (${ctx.config.webhooks.waitSeconds} s), so no two waits can be compared`);
      const flat = groups.flatMap((group) => {
        const gaps = group.slice(1).map((d, i) => d.receivedAt - group[i]!.receivedAt);
        const shrinking = gaps.slice(1).some((gap, i) => gap < gaps[i]! * GROWTH);
        return shrinking ? [{ event: describeDelivery(group[0]!).event, waitsMs: gaps }] : [];
      });
      if (flat.length > 0) {
        fail(`${flat.length} of ${groups.length} retried event(s) did not wait longer before each further attempt`, {
          expected: `each wait at least ${GROWTH}× the one before (exponential back-off)`,
          actual: flat.slice(0, 5),
        });
      }
    },
  }),
  requiresProfile('webhooks'),
  requiresCredential('apiKey'),
);
