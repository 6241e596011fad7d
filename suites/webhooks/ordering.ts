/** Status notifications tell a consistent story (PROFILE Messages: sent → delivered → read, or sent → failed). */
import { defineCheck } from '../../src/conformance/check.ts';
import { fail, skip } from '../../src/conformance/outcomes.ts';
import { expectedStatusesArrived } from './arrival.ts';
import { statusEventsOf } from './lib/events.ts';
import { webhookCheck } from './lib/preconditions.ts';

/** Position in the state machine; `failed` is the terminal alternative to `delivered` / `read`. */
const RANK: Record<string, number> = { sent: 0, delivered: 1, read: 2, failed: 1 };

/** Problems with one message's notified statuses, ordered by the time each status says it happened. */
export function orderProblems(statuses: ReadonlyArray<{ status: string; at: number }>): string[] {
  const known = statuses.filter((s) => s.status in RANK);
  const sorted = [...known].sort((a, b) => a.at - b.at || RANK[a.status]! - RANK[b.status]!);
  const problems: string[] = [];
  for (let i = 1; i < sorted.length; i++) {
    const [before, after] = [sorted[i - 1]!, sorted[i]!];
    if (RANK[after.status]! < RANK[before.status]!) problems.push(`"${after.status}" is dated after "${before.status}"`);
    if (before.status === 'failed') problems.push(`"${after.status}" follows "failed", which is terminal`);
  }
  const names = new Set(known.map((s) => s.status));
  if (names.has('failed') && (names.has('delivered') || names.has('read'))) problems.push(`both "failed" and ${names.has('read') ? '"read"' : '"delivered"'} were notified`);
  return [...new Set(problems)];
}

export const statusOrderConsistent = webhookCheck(
  defineCheck({
    id: 'webhooks.events.status-order',
    suite: 'webhooks',
    title: 'The statuses notified for one message follow the state machine in time order; "failed" is terminal',
    level: 'PROFILE',
    specRef: 'PROFILE Messages ("Message states: sent → delivered → read, or sent → failed"), Webhooks (message.status data {id, status, timestamp})',
    clauses: ['§6'],
    async run(ctx) {
      const { receiver, traffic } = await expectedStatusesArrived(ctx);
      const messages = [traffic.delivered, traffic.failing].filter((m): m is { id: string } => m !== undefined);
      const judged = messages.map((m) => {
        const seen = new Map<string, number>();
        for (const { status, body } of statusEventsOf(receiver.deliveries, m.id)) {
          const at = Date.parse(String(body.data?.timestamp ?? body.created_at));
          if (!seen.has(status)) seen.set(status, Number.isFinite(at) ? at : Number.POSITIVE_INFINITY);
        }
        const statuses = [...seen].map(([status, at]) => ({ status, at }));
        return { id: m.id, statuses, problems: orderProblems(statuses) };
      });
      if (judged.every((j) => j.statuses.length < 2)) skip('fewer than two statuses of any test message were notified (see webhooks.events.every-status)');
      const bad = judged.filter((j) => j.problems.length > 0);
      if (bad.length > 0) {
        fail(`inconsistent status notifications: ${bad.map((j) => `message ${j.id}: ${j.problems.join('; ')}`).join(' | ')}`, {
          expected: 'sent → delivered → read, or sent → failed, in the order of their timestamps',
          actual: bad.map((j) => ({ message: j.id, statuses: j.statuses.map((s) => ({ status: s.status, timestamp: Number.isFinite(s.at) ? new Date(s.at).toISOString() : null })) })),
        });
      }
    },
  }),
);
