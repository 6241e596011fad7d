/** After the webhook is deleted, nothing more is delivered to it (PROFILE Webhooks). */
import { defineCheck } from '../../src/conformance/check.ts';
import { fail, passVacuously, skip, undecided } from '../../src/conformance/outcomes.ts';
import { describeConditions, timestampUncertaintyMs, type ConditionsSnapshot } from '../../src/conformance/conditions.ts';
import { guarded, requiresCredential, requiresProfile } from '../../src/conformance/preconditions.ts';
import { deletion } from './lib/deletion-scenario.ts';
import { describeDelivery } from './lib/events.ts';
import { requiresManagement } from './lib/preconditions.ts';
import { waitMs } from '../lib/webhook-session.ts';

/** How long the receiver listens after the delete: longer than the pending retries of the reference (≤ 1 s). */
const WATCH_MS = 2000;
/**
 * A delivery already on the wire when the delete was answered may land just after it: this much on a quiet run,
 * plus what the run measured over the watch (inFlightToleranceMs).
 */
const GRACE_MS = 50;
/**
 * Event-loop turns a delivery passes between its send and the receiver's stamp: the sender's connect and write, the
 * receiver's read. Each can be late by the largest stall measured: on this machine's loop, and on a target's own
 * when it shares the machine and its load.
 */
const IN_FLIGHT_TURNS = 3;

/**
 * How long after the delete's answer a delivery sent before it may still land: the quiet grace, the round trips'
 * spread, and each turn of its way late by the largest stall. Past this, it was sent after the delete.
 */
export function inFlightToleranceMs(conditions: ConditionsSnapshot): number {
  return GRACE_MS + timestampUncertaintyMs(conditions, IN_FLIGHT_TURNS);
}

export const nothingAfterDelete = guarded(
  defineCheck({
    id: 'webhooks.deletion.nothing-after',
    suite: 'webhooks',
    title: 'Once a webhook is deleted nothing more is delivered to it: no new events, no pending retries',
    level: 'PROFILE',
    specRef: 'PROFILE Webhooks (DELETE /v1/webhooks/{id}; retries with back-off)',
    clauses: ['§6'],
    // After the delete this check only listens, and sends nothing: the ratelimit suite (which neither sends
    // messages nor manages webhooks, so causes no event) runs beside its watch. Its bursts are part of the
    // conditions measured over the watch, which the tolerance below is taken from.
    besideSuites: ['ratelimit'],
    async run(ctx) {
      const done = await deletion(ctx);
      if (done.reason) skip(done.reason);
      if (!done.session?.deleted) skip(`the delete answered ${done.response!.status}, so the webhook may still be registered (see webhooks.management.delete)`);
      const watch = Math.min(WATCH_MS, waitMs(ctx));
      const since = done.answeredAt!;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, since + watch - Date.now())));
      // The stamps compared (the delete's answer, each arrival) and the delivery's way are late by what the run
      // measured over the watch.
      const conditions = ctx.conditions.between(ctx.conditions.markOfWallClock(since), ctx.conditions.markOfWallClock(since + watch));
      const toleranceMs = inFlightToleranceMs(conditions);
      const deliveries = done.session.receiver.deliveries;
      const late = deliveries.filter((d) => d.receivedAt > since + toleranceMs);
      const close = deliveries.filter((d) => d.receivedAt > since + GRACE_MS && d.receivedAt <= since + toleranceMs);
      const before = deliveries.filter((d) => d.receivedAt <= since + GRACE_MS).length;
      const allowance = `${toleranceMs} ms (${GRACE_MS} ms, the round trips' spread, and ${IN_FLIGHT_TURNS} × the largest event-loop stall: ${describeConditions(conditions)})`;
      if (late.length > 0) {
        fail(`${late.length} deliver${late.length === 1 ? 'y' : 'ies'} arrived within ${watch} ms after the webhook was deleted, `
          + `later than a delivery already on the wire could land, ${allowance}, after the delete's answer; expected none`, {
          expected: 'no delivery after the delete',
          actual: late.slice(0, 10).map((d) => describeDelivery(d, since)),
          toleranceMs,
        });
      }
      if (close.length > 0) {
        undecided(`${close.length} deliver${close.length === 1 ? 'y' : 'ies'} arrived ${close.map((d) => `${d.receivedAt - since} ms`).join(', ')} after the delete's answer: `
          + `within the ${allowance} a delivery already on the wire may take, so this run cannot tell whether it was sent before the delete`, {
          actual: close.slice(0, 10).map((d) => describeDelivery(d, since)),
          conditions,
        });
      }
      // Silence after the delete says something only if the webhook was heard from before it.
      if (before === 0) passVacuously('nothing was ever delivered to the webhook, not even before the delete, so silence after it shows nothing');
    },
  }),
  requiresProfile('webhooks'),
  requiresManagement,
  requiresCredential('apiKey'),
);
