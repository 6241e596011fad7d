/**
 * A message's statuses are published in order whatever order due timers fire in: on a busy event loop two timers
 * that are both due may run in either order, so `read` must not be scheduled before `delivered` has happened.
 */
import { describe, expect, it } from 'vitest';
import type { TargetContext } from '../../../src/target/context.ts';
import { TargetEventBus } from '../../../src/target/events.ts';
import { startLifecycle } from '../../../src/target/message-lifecycle.ts';
import type { OutboundMessage } from '../../../src/target/store/outbound-messages.ts';

/** Timers that run the most recently scheduled due action first: the adversarial order a loaded loop can produce. */
function lastFirstTimers() {
  const pending: Array<() => void> = [];
  return {
    timers: { schedule: (_delayMs: number, fn: () => void) => void pending.push(fn) },
    runAll: () => {
      for (let guard = 0; pending.length > 0 && guard < 100; guard++) pending.pop()!();
    },
  };
}

function lifecycleOf(to: string, statusDelaysMs: { delivered: number; read: number }): string[] {
  const { timers, runAll } = lastFirstTimers();
  const events = new TargetEventBus();
  const statuses: string[] = [];
  events.on('message.status', (e) => statuses.push(e.status));
  const ctx = { options: { statusDelaysMs }, now: () => Date.UTC(2030, 0, 1), events, timers } as unknown as TargetContext;
  const message: OutboundMessage = { id: 'msg_1', to, type: 'text', status: 'sent', timestamp: '2030-01-01T00:00:00.000Z', accountId: 'acct_1' };
  startLifecycle(ctx, message);
  runAll();
  return statuses;
}

describe('message lifecycle', () => {
  it('publishes sent → delivered → read even when due timers run last-scheduled first', () => {
    expect(lifecycleOf('15551234567', { delivered: 5, read: 10 })).toEqual(['sent', 'delivered', 'read']);
  });

  it('reads right after delivery when read is configured shorter than delivered', () => {
    expect(lifecycleOf('15551234567', { delivered: 50, read: 10 })).toEqual(['sent', 'delivered', 'read']);
  });

  it('fails a number starting with 999 and never delivers or reads it', () => {
    expect(lifecycleOf('9995551234', { delivered: 5, read: 10 })).toEqual(['sent', 'failed']);
  });
});
