/**
 * Retries (PROFILE Webhooks: "a delivery answered with a non-2xx status … is retried with exponential back-off …
 * with the same webhook-id each time"). The receiver answers the first FAILED_ATTEMPTS attempts of every
 * webhook-id with 500, so each event of the suite's traffic should arrive at least FAILED_ATTEMPTS + 1 times.
 * Events are told apart by what they are about (type, message, status), not by their id, so a target that
 * changes the id on a retry is caught instead of looking like a new event.
 */
import { defineCheck } from '../../src/conformance/check.ts';
import { fail, skip, undecided } from '../../src/conformance/outcomes.ts';
import { describeConditions, uncertaintyOfGapChangeMs, type ConditionsSnapshot } from '../../src/conformance/conditions.ts';
import type { CheckContext } from '../../src/conformance/context.ts';
import type { ReceivedDelivery } from '../../src/webhooks/receiver.ts';
import { expectedStatusesArrived } from './arrival.ts';
import { byIdentity, describeDelivery, waitUntil } from './lib/events.ts';
import { activeSession, remainingMs, webhookTraffic } from '../lib/webhook-session.ts';
import { webhookCheck } from './lib/preconditions.ts';

/**
 * One event's waits judged against the run's measured conditions. The receiver stamps each arrival in this process,
 * so each stamp is late by 0 … e (e: the longest event-loop stall over the event's attempts plus the round-trip
 * spread, conditions.ts), and a change of wait (gap₂ − gap₁ = t₃ − 2t₂ + t₁) is uncertain by ±2e. A wait is longer
 * when it grew by more than that, shorter when it shrank by more; otherwise this run cannot tell.
 */
interface WaitJudgement {
  event: unknown;
  waitsMs: number[];
  /** The uncertainty of each change of wait, ms (±). */
  toleranceMs: number;
  verdict: 'longer' | 'shorter' | 'unknown';
  conditions: ConditionsSnapshot;
}

function judgeWaits(ctx: CheckContext, group: readonly ReceivedDelivery[]): WaitJudgement {
  const waitsMs = group.slice(1).map((d, i) => d.receivedAt - group[i]!.receivedAt);
  const conditions = ctx.conditions.between(ctx.conditions.markOfWallClock(group[0]!.receivedAt), ctx.conditions.markOfWallClock(group.at(-1)!.receivedAt));
  const toleranceMs = uncertaintyOfGapChangeMs(conditions);
  const changes = waitsMs.slice(1).map((wait, i) => wait - waitsMs[i]!);
  const verdict = changes.some((c) => c < -toleranceMs) ? 'shorter' : changes.every((c) => c > toleranceMs) ? 'longer' : 'unknown';
  return { event: describeDelivery(group[0]!).event, waitsMs, toleranceMs, verdict, conditions };
}

function describeWaits(j: WaitJudgement): string {
  return `${j.waitsMs.map((w) => `${w} ms`).join(' → ')} (tolerance ±${j.toleranceMs} ms)`;
}

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

export const retriedAfterFailure = webhookCheck(
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
);

export const idStableAcrossRetries = webhookCheck(
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
);

export const idUniquePerEvent = webhookCheck(
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
);

export const retriesBackOff = webhookCheck(
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
      const judged = groups.map((group) => judgeWaits(ctx, group));
      const shorter = judged.filter((j) => j.verdict === 'shorter');
      const unknown = judged.filter((j) => j.verdict === 'unknown');
      const show = (list: WaitJudgement[]) => list.slice(0, 5).map((j) => ({ event: j.event, waitsMs: j.waitsMs, toleranceMs: j.toleranceMs }));
      if (shorter.length > 0) {
        fail(`${shorter.length} of ${groups.length} retried event(s) waited measurably shorter before a further attempt: ${describeWaits(shorter[0]!)}; `
          + `the tolerance is twice the arrival stamps' uncertainty measured over those attempts (${describeConditions(shorter[0]!.conditions)})`, {
          expected: 'each wait longer than the one before (exponential back-off), beyond the measured uncertainty',
          actual: show(shorter),
        });
      }
      if (unknown.length > 0) {
        undecided(`${unknown.length} of ${groups.length} retried event(s) changed their wait by less than this run can measure: ${describeWaits(unknown[0]!)}; `
          + `measured over those attempts: ${describeConditions(unknown[0]!.conditions)}`, {
          rule: 'a wait counts as longer when it grew by more than ±tolerance, shorter when it shrank by more; tolerance = 2 × (longest event-loop stall over the attempts + round-trip p99 − p50)',
          undecided: show(unknown),
          conditions: unknown[0]!.conditions,
        });
      }
    },
  }),
);
