/**
 * Pagination with seeded data: the sandbox seeds, and messages that arrive in the middle of a walk.
 */
import { defineCheck } from '../../src/conformance/check.ts';
import { fail } from '../../src/conformance/outcomes.ts';
import { guarded, requiresCredential, requiresSandbox } from '../../src/conformance/preconditions.ts';
import { duplicateIds, idsOf, walkList } from './lib/list-walk.ts';
import { timeKey } from './lib/list-order.ts';
import { pastBase, runSeed, SeedError, seedOne, seedSeries, uniqueSender } from '../lib/message-seed.ts';

export const sandboxSeeds = guarded(
  defineCheck({
    id: 'pagination.seed.sandbox-accepts',
    suite: 'pagination',
    title: 'The sandbox accepts inbound messages (the pagination seeds) and answers each as a listed message',
    level: 'PROFILE',
    specRef: 'PROFILE Messages ("Sandbox: POST /v1/sandbox/inbound … answers 201 with the listed message"), SERVICE-SPEC §1 (sandbox)',
    clauses: ['§1.sandbox'],
    async run(ctx) {
      if (ctx.config.conformance.seedCount === 0) return;
      await runSeed(ctx).catch((err: Error) => {
        if (err instanceof SeedError) fail(`seeding through the sandbox failed: ${err.message}`, undefined, err.exchange ? [err.exchange] : undefined);
        throw err;
      });
    },
  }),
  requiresCredential('apiKey'),
  requiresSandbox,
);

/** Seeds of the insert check: few, so the walk is short; the page size makes three pages of them. */
const ORIGINALS = 6;
const PAGE = 2;

export const insertDuringWalk = guarded(
  defineCheck({
    id: 'pagination.stability.insert-during-walk',
    suite: 'pagination',
    title: 'Messages that arrive during a walk cause no repeat and no skip of the items that were there before',
    level: 'PROFILE',
    specRef: 'PROFILE Messages ("messages that arrive while a client pages through the list neither repeat nor shift items on later pages")',
    clauses: ['§8.3'],
    async run(ctx) {
      // Its own sender: the shared seed stays exactly as the other checks expect it.
      const from = uniqueSender();
      const originals = await seedSeries(ctx, from, ORIGINALS, pastBase(), 'insert-during-walk original').catch((err: Error) =>
        fail(`seeding through the sandbox failed: ${err.message}`),
      );
      const firstPage = await walkList(ctx, { label: `limit ${PAGE}, first page`, limit: PAGE, filter: { from }, maxPages: 1 });
      const page = firstPage.pages[0];
      if (!page || typeof page.next !== 'string') {
        fail(`the first page of ${ORIGINALS} messages at limit ${PAGE} carried no next cursor`, { next: page?.next, failure: firstPage.failure?.message });
      }
      // Arrivals: two now, and one whose timestamp falls between the first page's items (an offset-paging
      // implementation repeats an item after either).
      const inserted = [await seedOne(ctx, { from, text: 'arrived during the walk 1' }), await seedOne(ctx, { from, text: 'arrived during the walk 2' })];
      const [a, b] = page.items;
      if (a && b && timeKey(a.timestamp) !== timeKey(b.timestamp)) {
        const middle = new Date((timeKey(a.timestamp) + timeKey(b.timestamp)) / 2).toISOString();
        inserted.push(await seedOne(ctx, { from, text: 'arrived during the walk 3', timestamp: middle }));
      }
      const resumed = await walkList(ctx, { label: `limit ${PAGE}, after the arrivals`, limit: PAGE, filter: { from }, maxPages: ORIGINALS + 3, startCursor: page.next });
      if (resumed.failure) fail(`the walk could not be finished after the arrivals: ${resumed.failure.message}`);
      const listed = [...page.items.map((i) => i.id), ...idsOf(resumed)];
      const repeated = duplicateIds(listed);
      const missing = originals.map((m) => m.id).filter((id) => !listed.includes(id));
      if (repeated.length > 0 || missing.length > 0) {
        fail(`after ${inserted.length} messages arrived mid-walk: ${repeated.length} item(s) repeated, ${missing.length} original item(s) skipped`, {
          repeated,
          skipped: missing,
          inserted: inserted.map((m) => m.id),
        });
      }
    },
  }),
  requiresCredential('apiKey'),
  requiresSandbox,
);
