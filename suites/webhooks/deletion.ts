/** After the webhook is deleted, nothing more is delivered to it (PROFILE Webhooks). */
import { defineCheck } from '../../src/conformance/check.ts';
import { fail, passVacuously, skip, undecided } from '../../src/conformance/outcomes.ts';
import { describeConditions, timestampUncertaintyMs } from '../../src/conformance/conditions.ts';
import { guarded, requiresCredential, requiresProfile } from '../../src/conformance/preconditions.ts';
import { deletion } from './lib/deletion-scenario.ts';
import { describeDelivery } from './lib/events.ts';
import { requiresManagement } from './lib/preconditions.ts';
import { waitMs } from '../lib/webhook-session.ts';

/** How long the receiver listens after the delete: longer than the pending retries of the reference (≤ 1 s). */
const WATCH_MS = 2000;
/**
 * A delivery already on the wire when the delete was answered may land just after it: this much on a quiet run,
 * plus the uncertainty of the two stamps compared (the delete's answer and the arrival), measured over the watch.
 */
const GRACE_MS = 50;

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
      // Both stamps (the delete's answer, each arrival) are late by up to the stretch's stall + round-trip spread.
      const conditions = ctx.conditions.between(ctx.conditions.markOfWallClock(since), ctx.conditions.markOfWallClock(since + watch));
      const toleranceMs = timestampUncertaintyMs(conditions);
      const deliveries = done.session.receiver.deliveries;
      const late = deliveries.filter((d) => d.receivedAt > since + GRACE_MS + toleranceMs);
      const close = deliveries.filter((d) => d.receivedAt > since + GRACE_MS && d.receivedAt <= since + GRACE_MS + toleranceMs);
      const before = deliveries.filter((d) => d.receivedAt <= since + GRACE_MS).length;
      if (late.length > 0) {
        fail(`${late.length} deliver${late.length === 1 ? 'y' : 'ies'} arrived within ${watch} ms after the webhook was deleted, later than ${GRACE_MS} ms `
          + `+ the measured stamp uncertainty ${toleranceMs} ms after the delete's answer; expected none`, {
          expected: 'no delivery after the delete',
          actual: late.slice(0, 10).map((d) => describeDelivery(d, since)),
          toleranceMs: GRACE_MS + toleranceMs,
        });
      }
      if (close.length > 0) {
        undecided(`${close.length} deliver${close.length === 1 ? 'y' : 'ies'} arrived ${close.map((d) => `${d.receivedAt - since} ms`).join(', ')} after the delete's answer: `
          + `within ${GRACE_MS} ms + the measured stamp uncertainty ${toleranceMs} ms, so this run cannot tell whether it was sent before the delete (${describeConditions(conditions)})`, {
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
