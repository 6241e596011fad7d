/**
 * Received messages belong to the account that received them (sandbox inbound: the sandbox key's account).
 * Account B's list shows none of account A's messages — plain, filtered by A's sender, or by A's time window —
 * and a cursor issued to A, replayed by B, pages through nothing of A's.
 */
import { defineCheck } from '../../src/conformance/check.ts';
import { fail, passVacuously } from '../../src/conformance/outcomes.ts';
import type { CheckContext } from '../../src/conformance/context.ts';
import type { HttpResponse } from '../../src/http/client.ts';
import { seedOne, uniqueSender, type SeededMessage } from '../lib/message-seed.ts';
import { MUST_CLAUSES, MUST_REF, as, is2xx, listItems, ownershipCheck, type Account } from './lib/accounts.ts';

/** Pages of B's list read at most, looking for A's messages. */
const MAX_PAGES = 5;
const SEEDS = 3;

export interface AccountAMessages {
  messages: SeededMessage[];
  /** False when the target has no sandbox: the messages are those already on A's first page. */
  seeded: boolean;
}

/** Account A's received messages: seeded through the sandbox (one sender of this run), else those already there. */
export function accountAMessages(ctx: CheckContext): Promise<AccountAMessages> {
  return ctx.memo('ownership.messages', async () => {
    if (ctx.config.conformance.sandbox && ctx.config.conformance.profile.sandbox) {
      const from = uniqueSender();
      const messages: SeededMessage[] = [];
      for (let i = 0; i < SEEDS; i++) messages.push(await seedAsA(ctx, from, i));
      return { messages, seeded: true };
    }
    const res = await list(ctx, 'A', {});
    const messages = listItems(res)
      .filter((m) => typeof m.id === 'string' && typeof m.from === 'string' && typeof m.timestamp === 'string')
      .map((m) => ({ id: m.id as string, from: m.from as string, timestamp: m.timestamp as string }));
    return { messages, seeded: false };
  });
}

function seedAsA(ctx: CheckContext, from: string, i: number): Promise<SeededMessage> {
  // seedOne posts with credentials.apiKey: account A's key.
  return seedOne(ctx, { from, text: `ownership seed ${i + 1}` });
}

export function list(ctx: CheckContext, account: Account, query: Record<string, string | number | undefined>): Promise<HttpResponse> {
  return as(ctx, account, { method: 'GET', path: ctx.path('listMessages'), query });
}

/** A's message ids in B's answer (its items, or anywhere in its body). */
function leakedIds(res: HttpResponse, own: AccountAMessages): string[] {
  const ids = new Set(listItems(res).map((item) => item.id));
  return own.messages.map((m) => m.id).filter((id) => ids.has(id) || res.text.includes(id));
}

async function messagesOrVacuous(ctx: CheckContext): Promise<AccountAMessages> {
  const own = await accountAMessages(ctx);
  if (own.messages.length === 0) passVacuously('account A has no received messages to look for, and the target has no sandbox to seed them (conformance.sandbox: false)');
  return own;
}

/**
 * Account A's own list with the same query as B's: its messages are there (the evidence shows both accounts'
 * answers side by side). Not judged: the pagination and filter suites judge A's list.
 */
function listAsA(ctx: CheckContext, query: Record<string, string | number | undefined>): Promise<HttpResponse> {
  return list(ctx, 'A', query);
}

export const listIsolated = ownershipCheck(
  defineCheck({
    id: 'ownership.messages.list-isolated',
    suite: 'ownership',
    title: "Another account's message list shows none of the first account's received messages",
    level: 'MUST',
    specRef: MUST_REF,
    clauses: [...MUST_CLAUSES, '§4.list'],
    requests: MAX_PAGES + 1 + SEEDS,
    async run(ctx) {
      const own = await messagesOrVacuous(ctx);
      const { limit, cursor } = ctx.config.api.query;
      let query: Record<string, string | number | undefined> = { [limit]: ctx.config.api.pagination.maxLimit };
      await listAsA(ctx, query);
      for (let page = 1; page <= MAX_PAGES; page++) {
        const res = await list(ctx, 'B', query);
        if (!is2xx(res)) return;
        const leaked = leakedIds(res, own);
        if (leaked.length > 0) fail(`account B's message list shows account A's message${leaked.length > 1 ? 's' : ''} ${leaked.join(', ')} (page ${page})`, { expected: "none of account A's messages", actual: leaked });
        const next = res.json<{ pagination?: { next?: unknown } }>()?.pagination?.next;
        if (typeof next !== 'string' || next === '') return;
        query = { [limit]: ctx.config.api.pagination.maxLimit, [cursor]: next };
      }
    },
  }),
);

export const filteredListIsolated = ownershipCheck(
  defineCheck({
    id: 'ownership.messages.filtered-isolated',
    suite: 'ownership',
    title: "Another account's message list, filtered by the first account's sender or time window, shows none of its messages",
    level: 'MUST',
    specRef: `${MUST_REF}; api.query.from, api.query.since, api.query.until`,
    clauses: [...MUST_CLAUSES, '§4.list'],
    requests: 4 + SEEDS,
    async run(ctx) {
      const own = await messagesOrVacuous(ctx);
      const q = ctx.config.api.query;
      const times = own.messages.map((m) => Date.parse(m.timestamp)).filter(Number.isFinite);
      const queries: Array<[string, Record<string, string | number | undefined>]> = [[`${q.from}=${own.messages[0]!.from}`, { [q.from]: own.messages[0]!.from }]];
      if (times.length > 0) {
        const since = new Date(Math.min(...times)).toISOString();
        const until = new Date(Math.max(...times) + 1).toISOString();
        queries.push([`${q.since}=${since}&${q.until}=${until}`, { [q.since]: since, [q.until]: until }]);
      }
      for (const [label, query] of queries) {
        await listAsA(ctx, { [q.limit]: ctx.config.api.pagination.maxLimit, ...query });
        const res = await list(ctx, 'B', { [q.limit]: ctx.config.api.pagination.maxLimit, ...query });
        if (!is2xx(res)) continue;
        const leaked = leakedIds(res, own);
        if (leaked.length > 0) fail(`account B's message list filtered by ${label} shows account A's message${leaked.length > 1 ? 's' : ''} ${leaked.join(', ')}`, { expected: "none of account A's messages", actual: leaked });
      }
    },
  }),
);

export const cursorIsolated = ownershipCheck(
  defineCheck({
    id: 'ownership.messages.cursor-isolated',
    suite: 'ownership',
    title: "A list cursor issued to one account, replayed by another, pages through nothing of the first account's messages",
    level: 'MUST',
    specRef: `${MUST_REF}; api.query.cursor`,
    clauses: [...MUST_CLAUSES, '§4.list'],
    requests: 2 + SEEDS,
    async run(ctx) {
      const own = await messagesOrVacuous(ctx);
      const q = ctx.config.api.query;
      const from = own.messages[0]!.from;
      const first = await list(ctx, 'A', { [q.limit]: 1, [q.from]: from });
      const next = first.json<{ pagination?: { next?: unknown } }>()?.pagination?.next;
      if (!is2xx(first) || typeof next !== 'string' || next === '') {
        passVacuously(`account A's first page of one message (${q.from}=${from}) gave no cursor to replay (status ${first.status})`);
      }
      for (const query of [{ [q.limit]: 1, [q.from]: from, [q.cursor]: next }, { [q.cursor]: next }]) {
        const res = await list(ctx, 'B', query);
        if (!is2xx(res)) continue;
        const leaked = leakedIds(res, own);
        if (leaked.length > 0) fail(`account B replaying account A's cursor got account A's message${leaked.length > 1 ? 's' : ''} ${leaked.join(', ')}`, { expected: "none of account A's messages", actual: leaked });
      }
    },
  }),
);
