/**
 * Reading deliveries: the parsed Standard Webhooks envelope (PROFILE: `{id, type, created_at, data}`), which
 * message and status a delivery is about, and waiting — bounded — until the receiver has seen enough.
 */
import type { ReceivedDelivery, WebhookReceiver } from '../../../src/webhooks/receiver.ts';

export interface EventBody {
  id?: unknown;
  type?: unknown;
  created_at?: unknown;
  data?: { id?: unknown; status?: unknown; timestamp?: unknown; [key: string]: unknown };
}

const parsed = new WeakMap<ReceivedDelivery, EventBody | null>();

/** The delivery's JSON body when it is a JSON object, else undefined (memoised per delivery). */
export function bodyOf(delivery: ReceivedDelivery): EventBody | undefined {
  let body = parsed.get(delivery);
  if (body === undefined) {
    try {
      const value: unknown = JSON.parse(delivery.rawBody);
      body = value && typeof value === 'object' && !Array.isArray(value) ? (value as EventBody) : null;
    } catch {
      body = null;
    }
    parsed.set(delivery, body);
  }
  return body ?? undefined;
}

/**
 * What a delivery is about, independent of its webhook-id: `type|message id|status`. Retries of one event share
 * it even when a target (wrongly) changes the id; deliveries that are not PROFILE envelopes fall back to the id.
 */
export function identityOf(delivery: ReceivedDelivery): string {
  const body = bodyOf(delivery);
  if (body && typeof body.type === 'string' && body.data && typeof body.data.id === 'string') {
    return `${body.type}|${body.data.id}|${typeof body.data.status === 'string' ? body.data.status : ''}`;
  }
  return `webhook-id|${delivery.headers['webhook-id'] ?? `#${delivery.seq}`}`;
}

/** Deliveries grouped by identity, each group in arrival order. */
export function byIdentity(deliveries: readonly ReceivedDelivery[]): Map<string, ReceivedDelivery[]> {
  const groups = new Map<string, ReceivedDelivery[]>();
  for (const delivery of deliveries) {
    const key = identityOf(delivery);
    groups.set(key, [...(groups.get(key) ?? []), delivery]);
  }
  return groups;
}

/** `message.status` deliveries about one message, as [status, delivery] in arrival order. */
export function statusEventsOf(deliveries: readonly ReceivedDelivery[], messageId: string): Array<{ status: string; body: EventBody; delivery: ReceivedDelivery }> {
  return deliveries.flatMap((delivery) => {
    const body = bodyOf(delivery);
    if (body?.type !== 'message.status' || body.data?.id !== messageId || typeof body.data.status !== 'string') return [];
    return [{ status: body.data.status, body, delivery }];
  });
}

/** Shape-agnostic (MUST level): the raw body mentions the string (a message id). */
export function mentions(delivery: ReceivedDelivery, text: string): boolean {
  return text.length > 0 && delivery.rawBody.includes(text);
}

/** Resolves true as soon as `done(deliveries)` holds, or false when `timeoutMs` passes first. */
export async function waitUntil(receiver: WebhookReceiver, done: (deliveries: readonly ReceivedDelivery[]) => boolean, timeoutMs: number): Promise<boolean> {
  if (done(receiver.deliveries)) return true;
  await receiver.waitFor(() => done(receiver.deliveries), timeoutMs);
  return done(receiver.deliveries);
}

/** A delivery as `details` shows it: no body (it may be long), the facts that matter. */
export function describeDelivery(delivery: ReceivedDelivery, since?: number): Record<string, unknown> {
  return {
    event: identityOf(delivery),
    webhookId: delivery.headers['webhook-id'],
    attempt: delivery.attempt,
    answered: delivery.answered,
    ...(since !== undefined ? { arrivedAfterMs: delivery.receivedAt - since } : {}),
  };
}

/** The statuses each test message must be notified of (PROFILE Messages: the state machine). */
export const EXPECTED_STATUSES = { delivered: ['sent', 'delivered', 'read'], failing: ['sent', 'failed'] } as const;
