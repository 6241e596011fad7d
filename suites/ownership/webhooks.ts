/**
 * A webhook belongs to the account that registered it: account B's credential neither sees it in its list nor
 * deletes it (A's webhook is still listed for A after B's attempt). Each check registers its own webhook with a
 * loopback URL that nothing listens on and removes it before it ends, so no event of the run is delivered to it.
 */
import { randomBytes } from 'node:crypto';
import { defineCheck } from '../../src/conformance/check.ts';
import { fail } from '../../src/conformance/outcomes.ts';
import type { CheckContext } from '../../src/conformance/context.ts';
import { expect2xx } from '../../src/conformance/expect.ts';
import { MUST_CLAUSES, MUST_REF, as, echoed, is2xx, listItems, ownershipCheck } from './lib/accounts.ts';

export interface OwnedWebhook {
  id: string;
  url: string;
}

/** Registers a webhook for account A, runs `body`, then deletes it as A (whatever `body` did). */
export async function withAccountAWebhook<T>(ctx: CheckContext, body: (hook: OwnedWebhook) => Promise<T>): Promise<T> {
  // Port 9 (discard) on loopback: a URL a local target accepts, and a delivery to it would reach nothing.
  const url = `http://127.0.0.1:9/ownership-${randomBytes(6).toString('hex')}`;
  const res = await as(ctx, 'A', { method: 'POST', path: ctx.path('createWebhook'), json: { url, events: ['message.status'] } });
  expect2xx(res, "register account A's webhook");
  const id = res.json<Record<string, unknown>>()?.id;
  if (typeof id !== 'string' || id.length === 0) fail("register account A's webhook: the answer has no id");
  try {
    return await body({ id, url });
  } finally {
    await as(ctx, 'A', { method: 'DELETE', path: ctx.path('deleteWebhook', { id }) }).catch(() => undefined);
  }
}

export function deleteAsB(ctx: CheckContext, id: string) {
  return as(ctx, 'B', { method: 'DELETE', path: ctx.path('deleteWebhook', { id }) });
}

export const webhookListIsolated = ownershipCheck(
  defineCheck({
    id: 'ownership.webhooks.list-isolated',
    suite: 'ownership',
    title: "Another account's credential does not see a webhook in its webhook list",
    level: 'MUST',
    specRef: MUST_REF,
    clauses: [...MUST_CLAUSES, '§6'],
    async run(ctx) {
      await withAccountAWebhook(ctx, async (hook) => {
        const res = await as(ctx, 'B', { method: 'GET', path: ctx.path('listWebhooks') });
        if (!is2xx(res)) return;
        const leaked = listItems(res).some((item) => item.id === hook.id) || echoed(res, [hook.id, hook.url]).length > 0;
        if (leaked) fail(`account B's webhook list shows account A's webhook ${hook.id}`, { expected: `no ${hook.id}`, actual: hook.id });
      });
    },
  }),
  'webhooks',
);

export const webhookDeleteRefused = ownershipCheck(
  defineCheck({
    id: 'ownership.webhooks.delete-refused',
    suite: 'ownership',
    title: "Another account's credential cannot delete a webhook: refused, and the webhook is still registered",
    level: 'MUST',
    specRef: MUST_REF,
    clauses: [...MUST_CLAUSES, '§6'],
    async run(ctx) {
      await withAccountAWebhook(ctx, async (hook) => {
        const res = await deleteAsB(ctx, hook.id);
        if (is2xx(res)) fail(`account B deleted account A's webhook ${hook.id} (${res.status})`, { expected: 'a refusal (404 or 403)', actual: res.status });
        const list = await as(ctx, 'A', { method: 'GET', path: ctx.path('listWebhooks') });
        expect2xx(list, "account A's webhook list after account B's delete attempt");
        if (!listItems(list).some((item) => item.id === hook.id)) {
          fail(`account A's webhook ${hook.id} is gone after account B's refused delete (${res.status})`, { expected: `${hook.id} listed for account A`, actual: 'not listed' });
        }
      });
    },
  }),
  'webhooks',
);
