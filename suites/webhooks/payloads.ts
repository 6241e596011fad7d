/**
 * What every delivery looks like (PROFILE Webhooks, Standard Webhooks): the `{id, type, created_at, data}`
 * envelope with the data schema of its type, a signature that verifies over the raw body with the webhook's
 * secret, and a `webhook-timestamp` close to the receiver's clock.
 */
import { defineCheck } from '../../src/conformance/check.ts';
import { fail, skip } from '../../src/conformance/outcomes.ts';
import type { CheckContext } from '../../src/conformance/context.ts';
import type { ReceivedDelivery } from '../../src/webhooks/receiver.ts';
import { verifySignature } from '../../src/webhooks/verify-signature.ts';
import { expectedStatusesArrived } from './arrival.ts';
import { bodyOf, describeDelivery, mentions } from './lib/events.ts';
import { activeSession, remainingMs } from '../lib/webhook-session.ts';
import { webhookCheck } from './lib/preconditions.ts';

/** Standard Webhooks' default tolerance for webhook-timestamp. */
const TOLERANCE_S = 5 * 60;
const LISTED = 3;

/** The deliveries of the suite's traffic, once every expected one arrived (or the wait ran out); skips on none. */
async function deliveriesToJudge(ctx: CheckContext): Promise<{ deliveries: readonly ReceivedDelivery[]; secret: string }> {
  const { session, reason } = await activeSession(ctx);
  if (!session) skip(reason!);
  const { receiver, traffic } = await expectedStatusesArrived(ctx);
  if (traffic.inbound) await receiver.waitFor((d) => mentions(d, traffic.inbound!.id), remainingMs(ctx, traffic));
  if (receiver.deliveries.length === 0) skip('no delivery arrived to judge (see webhooks.events.status-notified)');
  return { deliveries: [...receiver.deliveries], secret: session.hook.secret };
}

/**
 * Judges every delivery with `problemOf` (undefined: none) and fails listing the first few that have one: "N of M
 * deliveries <what>", with `expected` beside them.
 */
async function judgeEach(ctx: CheckContext, what: string, expected: string, problemOf: (delivery: ReceivedDelivery, secret: string) => string | undefined): Promise<void> {
  const { deliveries, secret } = await deliveriesToJudge(ctx);
  const problems = deliveries.flatMap((delivery) => {
    const problem = problemOf(delivery, secret);
    return problem === undefined ? [] : [{ delivery, problem }];
  });
  if (problems.length === 0) return;
  const listed = problems.slice(0, LISTED).map((p) => `#${p.delivery.seq} ${describeDelivery(p.delivery).event}: ${p.problem}`);
  fail(`${problems.length} of ${deliveries.length} deliveries ${what}: ${listed.join(' | ')}${problems.length > LISTED ? ' | …' : ''}`, {
    expected,
    actual: problems.slice(0, 20).map((p) => ({ ...describeDelivery(p.delivery), problem: p.problem })),
  });
}

export const payloadsMatchSchema = webhookCheck(
  defineCheck({
    id: 'webhooks.payload.matches-schema',
    suite: 'webhooks',
    title: 'Every delivery is a JSON event {id, type, created_at, data} whose data matches its type (listed message, or {id, status, timestamp, error?})',
    level: 'PROFILE',
    specRef: 'PROFILE Webhooks (envelope {id, type, created_at, data}; message.received data is the listed message; message.status data {id, status, timestamp, error?}); schemas/api/webhook-event.schema.json',
    clauses: ['§6'],
    async run(ctx) {
      await judgeEach(ctx, 'do not match the webhook-event schema', 'schemas/api/webhook-event.schema.json', (delivery) => {
        const body = bodyOf(delivery);
        if (!body) return 'the body is not a JSON object';
        const outcome = ctx.schemas.validate('webhook-event', body);
        return outcome.ok ? undefined : outcome.errors.slice(0, 3).join('; ');
      });
    },
  }),
);

export const signatureVerifies = webhookCheck(
  defineCheck({
    id: 'webhooks.signature.valid',
    suite: 'webhooks',
    title: 'Every delivery carries webhook-id, webhook-timestamp and a webhook-signature that verifies over the raw body with the secret',
    level: 'PROFILE',
    specRef: 'PROFILE Webhooks (Standard Webhooks headers; v1 = base64 HMAC-SHA256 of "{id}.{timestamp}.{body}"); Standard Webhooks spec "Signature scheme" (whsec_ secrets: base64-decoded key)',
    clauses: ['§6'],
    async run(ctx) {
      await judgeEach(ctx, 'are not signed correctly', 'webhook-signature "v1,<base64 HMAC-SHA256(secret, id.timestamp.body)>"', ({ headers, rawBody }, secret) => {
        const verdict = verifySignature({ id: headers['webhook-id'], timestamp: headers['webhook-timestamp'], signature: headers['webhook-signature'], rawBody }, secret, ctx.config.webhooks.signingKey);
        return verdict.ok ? undefined : verdict.reason;
      });
    },
  }),
);

export const timestampFresh = webhookCheck(
  defineCheck({
    id: 'webhooks.headers.timestamp-fresh',
    suite: 'webhooks',
    title: 'webhook-timestamp is the attempt time in whole Unix seconds, within ±5 minutes of arrival',
    level: 'PROFILE',
    specRef: 'PROFILE Webhooks ("webhook-timestamp (Unix seconds)"); Standard Webhooks spec "Verifying webhooks" (5-minute tolerance)',
    clauses: ['§6'],
    async run(ctx) {
      await judgeEach(ctx, 'carry a bad webhook-timestamp', `Unix seconds within ±${TOLERANCE_S} s of arrival`, (delivery) => {
        const value = delivery.headers['webhook-timestamp'];
        if (value === undefined) return 'no webhook-timestamp header';
        if (!/^[0-9]{1,12}$/.test(value)) return `webhook-timestamp ${JSON.stringify(value.slice(0, 40))} is not whole Unix seconds`;
        const offsetS = Math.round(Number(value) - delivery.receivedAt / 1000);
        return Math.abs(offsetS) > TOLERANCE_S ? `webhook-timestamp ${value} is ${offsetS} s away from the arrival time` : undefined;
      });
    },
  }),
);
