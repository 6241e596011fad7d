/**
 * What happens to a sent message afterwards: sent → delivered → read after the configured delays, or
 * sent → failed for numbers starting with 999 (PROFILE.md). Each change updates the store and is published
 * as `message.status`, which webhook delivery turns into notifications.
 */
import type { TargetContext } from './context.ts';
import { isoTime } from './ids.ts';
import type { MessageError, MessageStatus } from './model.ts';
import type { OutboundMessage } from './store/outbound-messages.ts';

/** Recipients with this prefix never receive anything: the reference's way to produce a `failed` status. */
export const FAILING_PREFIX = '999';

export const UNREACHABLE: MessageError = {
  code: 'recipient_unreachable',
  message: 'The recipient number cannot receive messages.',
};

export function startLifecycle(ctx: TargetContext, message: OutboundMessage): void {
  publish(ctx, message, 'sent');
  const { delivered, read } = ctx.options.statusDelaysMs;
  if (message.to.startsWith(FAILING_PREFIX)) {
    ctx.timers.schedule(delivered, () => publish(ctx, message, 'failed', UNREACHABLE));
    return;
  }
  // `read` is measured from the send, like `delivered`, but scheduled only once `delivered` is published: two
  // timers due at once on a busy event loop may fire in either order, and a message is never read before it is
  // delivered (a misconfigured read < delivered reads right after delivery).
  ctx.timers.schedule(delivered, () => {
    publish(ctx, message, 'delivered');
    ctx.timers.schedule(Math.max(0, read - delivered), () => publish(ctx, message, 'read'));
  });
}

function publish(ctx: TargetContext, message: OutboundMessage, status: MessageStatus, error?: MessageError): void {
  const timestamp = status === 'sent' ? message.timestamp : isoTime(ctx.now());
  message.status = status;
  if (error) message.error = error;
  ctx.events.emit('message.status', { id: message.id, status, timestamp, ...(error ? { error } : {}) }, message.accountId);
}
