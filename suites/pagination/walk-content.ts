/**
 * Pagination: what the walks list taken together — every item once, in the documented order, the same on a
 * second walk. Seeded: compared with the seeds. Read-only: compared with each other over the range both cover.
 */
import { defineCheck } from '../../src/conformance/check.ts';
import { fail, passVacuously, skip } from '../../src/conformance/outcomes.ts';
import type { CheckContext } from '../../src/conformance/context.ts';
import type { Exchange } from '../../src/http/exchange.ts';
import { requiresCredential } from '../../src/conformance/preconditions.ts';
import { firstOutOfOrder, withinCommonRange } from './lib/list-order.ts';
import { duplicateIds, idsOf, itemsOf, type ListedItem, type Walk } from './lib/list-walk.ts';
import { sizedWalks, walkSet, type WalkSet } from './lib/walk-set.ts';

/** Walks that ran to their end or were cut on purpose (not stopped by an error answer). */
function usable(set: WalkSet, ctx: CheckContext): Walk[] {
  const walks = sizedWalks(set, ctx).map((w) => w.walk).filter((walk) => !walk.failure);
  if (walks.length === 0) skip(`no walk of the list finished: ${sizedWalks(set, ctx).map((w) => w.walk.failure?.message).join('; ')}`);
  return walks;
}

/** A check over the items of the walks passes with nothing behind it when the walks found no item at all. */
function emptyIsVacuous(walks: readonly Walk[]): void {
  if (walks.every((walk) => itemsOf(walk).length === 0)) passVacuously('the list was empty: no item to judge');
}

/** Each item at its first listing only. */
function firstListings(items: readonly ListedItem[]): ListedItem[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    if (seen.has(item.id)) return false;
    seen.add(item.id);
    return true;
  });
}

function pagesShowing(walk: Walk, ids: ReadonlySet<string>): Exchange[] {
  return walk.pages.filter((page) => page.items.some((item) => ids.has(item.id))).map((page) => page.exchange);
}

export const unionEqualsData = requiresCredential('apiKey')(
  defineCheck({
    id: 'pagination.walk.union-equals-data',
    suite: 'pagination',
    title: 'Walking with limit 1, the default and the maximum lists the same set of items (seeded: exactly the seeds)',
    level: 'PROFILE',
    specRef: 'PROFILE Messages (cursor paging, from filter)',
    clauses: ['§4.list', '§8.3'],
    async run(ctx) {
      const set = await walkSet(ctx);
      const problems: string[] = [];
      const details: Record<string, unknown> = {};
      for (const walk of usable(set, ctx)) {
        let expected: Set<string>;
        let got: Set<string>;
        if (set.seed) {
          expected = new Set(set.seed.messages.map((m) => m.id));
          got = new Set(idsOf(walk));
        } else {
          if (walk === set.max) continue;
          const [mine, theirs] = withinCommonRange(itemsOf(walk), itemsOf(set.max));
          expected = new Set(theirs.map((i) => i.id));
          got = new Set(mine.map((i) => i.id));
        }
        const missing = [...expected].filter((id) => !got.has(id));
        const extra = [...got].filter((id) => !expected.has(id));
        if (missing.length > 0 || extra.length > 0) {
          problems.push(`${walk.label}: ${missing.length} missing, ${extra.length} unexpected`);
          details[walk.label] = { missing: missing.slice(0, 10), unexpected: extra.slice(0, 10) };
        }
      }
      const against = set.seed ? `the ${set.seed.messages.length} seeded messages` : 'the walk at the maximum limit';
      if (problems.length > 0) fail(`the walks do not list the same items as ${against}: ${problems.join('; ')}`, details);
      if (!set.seed) emptyIsVacuous(usable(set, ctx));
    },
  }),
);

export const noDuplicates = requiresCredential('apiKey')(
  defineCheck({
    id: 'pagination.walk.no-duplicates',
    suite: 'pagination',
    title: 'No item is listed twice in one walk',
    level: 'PROFILE',
    specRef: 'PROFILE Messages (keyset cursors: "neither repeat nor shift items")',
    clauses: ['§8.3'],
    async run(ctx) {
      const set = await walkSet(ctx);
      const problems: string[] = [];
      const shown: Exchange[] = [];
      for (const walk of usable(set, ctx)) {
        const dups = duplicateIds(idsOf(walk));
        if (dups.length > 0) {
          problems.push(`${walk.label}: ${dups.slice(0, 5).join(', ')} listed more than once`);
          shown.push(...pagesShowing(walk, new Set(dups)));
        }
      }
      if (problems.length > 0) fail(`an item was listed twice: ${problems.join('; ')}`, { problems }, shown.slice(0, 6));
      emptyIsVacuous(usable(set, ctx));
    },
  }),
);

export const documentedOrder = requiresCredential('apiKey')(
  defineCheck({
    id: 'pagination.walk.documented-order',
    suite: 'pagination',
    title: 'Items are listed in the documented order (api.pagination.order) by (timestamp, id), across pages',
    level: 'PROFILE',
    specRef: 'PROFILE Messages ("newest first, ordered by (timestamp, id) descending"); api.pagination.order',
    clauses: ['§4.list'],
    async run(ctx) {
      const set = await walkSet(ctx);
      const problems: string[] = [];
      const shown: Exchange[] = [];
      for (const walk of usable(set, ctx)) {
        // Repeats are no-duplicates' concern: the order is judged on each item's first listing.
        const wrong = firstOutOfOrder(set.order, firstListings(itemsOf(walk)));
        if (wrong) {
          problems.push(`${walk.label}: ${wrong.before.id} (${wrong.before.timestamp}) is listed before ${wrong.after.id} (${wrong.after.timestamp})`);
          shown.push(...pagesShowing(walk, new Set([wrong.before.id, wrong.after.id])));
        }
      }
      if (problems.length > 0) fail(`items are not in ${set.order} order by (timestamp, id): ${problems.join('; ')}`, { order: set.order, problems }, shown.slice(0, 6));
      if (usable(set, ctx).every((walk) => itemsOf(walk).length < 2)) passVacuously('no walk listed two items, so there was no order to judge');
    },
  }),
);

export const stableWalks = requiresCredential('apiKey')(
  defineCheck({
    id: 'pagination.walk.stable',
    suite: 'pagination',
    title: 'Two walks at the default limit list the same items in the same order',
    level: 'PROFILE',
    specRef: 'PROFILE Messages ("A page is stable")',
    clauses: ['§8.3'],
    async run(ctx) {
      const set = await walkSet(ctx);
      const [first, second] = [set.byDefault, set.again];
      if (first.failure || second.failure) skip(`a walk at the default limit did not finish: ${first.failure?.message ?? second.failure?.message}`);
      let a = itemsOf(first);
      let b = itemsOf(second);
      if (!set.seed) [a, b] = withinCommonRange(a, b);
      const idsA = a.map((i) => i.id);
      const idsB = b.map((i) => i.id);
      if (idsA.length === 0 && idsB.length === 0) passVacuously('both walks found an empty list, so there was nothing whose order could change');
      const at = idsA.findIndex((id, i) => id !== idsB[i]);
      if (at >= 0 || idsA.length !== idsB.length) {
        const index = at >= 0 ? at : Math.min(idsA.length, idsB.length);
        fail(`two walks at the default limit differ at item ${index + 1}: first ${idsA[index] ?? '(end)'}, second ${idsB[index] ?? '(end)'}`, {
          first: idsA.slice(Math.max(0, index - 2), index + 3),
          second: idsB.slice(Math.max(0, index - 2), index + 3),
        });
      }
    },
  }),
);
