/**
 * Pagination: what each page of a walk says about itself — its limit, its size, and its next cursor.
 * Walks: limit 1, the default, the maximum (lib/walk-set.ts).
 */
import { defineCheck } from '../../src/conformance/check.ts';
import { fail, passVacuously, skip } from '../../src/conformance/outcomes.ts';
import { guarded, requiresCredential } from '../../src/conformance/preconditions.ts';
import { reachedEnd } from './lib/list-walk.ts';
import { PageProblems, sizedWalks, walkSet } from './lib/walk-set.ts';

export const pageWithinLimit = requiresCredential('apiKey')(
  defineCheck({
    id: 'pagination.walk.page-within-limit',
    suite: 'pagination',
    title: 'Every page carries pagination.limit, an integer, and lists no more items than that page size',
    level: 'MUST',
    specRef: 'SERVICE-SPEC §2.4 (pagination.limit: "Page size used"), §8.3',
    clauses: ['§2.4', '§8.3', '§4.list'],
    async run(ctx) {
      const set = await walkSet(ctx);
      const found = new PageProblems();
      let pages = 0;
      for (const { walk } of sizedWalks(set, ctx)) {
        walk.pages.forEach((page, i) => {
          pages++;
          const limit = page.limit;
          if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1) {
            found.add(`${walk.label}, page ${i + 1}: pagination.limit is ${JSON.stringify(limit)}, not a positive integer`, page.exchange);
          } else if (page.items.length > limit) {
            found.add(`${walk.label}, page ${i + 1}: ${page.items.length} items on a page whose pagination.limit is ${limit}`, page.exchange);
          }
        });
      }
      if (pages === 0) fail(`the list answered no page to walk: ${[set.one, set.byDefault, set.max].map((w) => w.failure?.message).join('; ')}`);
      found.failIfAny('pagination.limit must be the page size used');
      const items = sizedWalks(set, ctx).reduce((n, { walk }) => n + walk.pages.reduce((m, p) => m + p.items.length, 0), 0);
      if (items === 0) passVacuously('every page was empty, so no page could list more items than its pagination.limit');
    },
  }),
);

export const nextLeadsToNextPage = requiresCredential('apiKey')(
  defineCheck({
    id: 'pagination.walk.next-leads-to-next-page',
    suite: 'pagination',
    title: 'Following pagination.next (as the cursor parameter) answers the next page: a list envelope, not the same page again',
    // PROFILE, not MUST: the spec says next is "Cursor for the next page" but not how to send it ("the name of
    // the cursor request parameter: not shown", §8.3), so following it depends on PROFILE's `cursor` or the
    // config's api.query.cursor. A target that pages with another parameter must not fail a MUST check.
    level: 'PROFILE',
    specRef: 'SERVICE-SPEC §2.4 (pagination.next: "Cursor for the next page"), §8.3; the parameter that carries it is PROFILE Messages ("cursor") or api.query.cursor',
    clauses: ['§2.4', '§8.3', '§4.list'],
    async run(ctx) {
      const set = await walkSet(ctx);
      const found = new PageProblems();
      let followed = 0;
      for (const { walk } of sizedWalks(set, ctx)) {
        if (walk.failure?.viaCursor) {
          found.add(`${walk.failure.message} when following next`, walk.failure.exchange);
        }
        walk.pages.forEach((page, i) => {
          if (!page.viaCursor) return;
          followed++;
          const before = walk.pages[i - 1]!;
          const same = page.items.length > 0 && page.items.map((x) => x.id).join('\n') === before.items.map((x) => x.id).join('\n');
          if (same) {
            found.add(`${walk.label}: the next cursor of page ${i} led to the same page again`, before.exchange, page.exchange);
          }
        });
      }
      if (followed === 0 && found.count === 0) skip('no page carried a next cursor, so there was nothing to follow (the list has at most one page)');
      found.failIfAny('a next cursor must lead to the next page');
    },
  }),
);

export const limitEchoesSize = requiresCredential('apiKey')(
  defineCheck({
    id: 'pagination.walk.limit-echoes-size',
    suite: 'pagination',
    title: 'pagination.limit is the limit sent (1 and api.pagination.maxLimit), or api.pagination.defaultLimit when none is sent',
    // PROFILE: the parameter and the default are PROFILE's; that limit is the size USED is §2.4's (MUST,
    // pagination.walk.limit-is-size-used).
    level: 'PROFILE',
    specRef: 'PROFILE Messages ("limit (default 20, 1–100)"); api.pagination.defaultLimit / maxLimit',
    clauses: ['§2.4', '§8.3'],
    async run(ctx) {
      const set = await walkSet(ctx);
      const found = new PageProblems();
      for (const { walk, size } of sizedWalks(set, ctx)) {
        walk.pages.forEach((page, i) => {
          if (page.limit !== size) {
            found.add(`${walk.label}, page ${i + 1}: expected pagination.limit ${size}, got ${JSON.stringify(page.limit)}`, page.exchange);
          }
        });
      }
      found.failIfAny('pagination.limit is not the page size asked for');
    },
  }),
);

export const fullPages = requiresCredential('apiKey')(
  defineCheck({
    id: 'pagination.walk.full-pages',
    suite: 'pagination',
    title: 'Every page but the last holds exactly the page size (1, the default, the maximum) in items',
    level: 'PROFILE',
    specRef: 'PROFILE Messages (limit is the page size; keyset pages)',
    clauses: ['§8.3'],
    async run(ctx) {
      const set = await walkSet(ctx);
      const found = new PageProblems();
      let judged = 0;
      for (const { walk, size } of sizedWalks(set, ctx)) {
        // The last page with items of a walk that ran out may be short (empty pages after it are the next-null
        // check's concern); a walk that was cut while still listing items had a next on every page it saw, so all
        // of them must be full.
        const lastWithItems = walk.pages.map((p) => p.items.length > 0).lastIndexOf(true);
        const mustBeFull = reachedEnd(walk) ? walk.pages.slice(0, Math.max(0, lastWithItems)) : walk.pages;
        judged += mustBeFull.length;
        mustBeFull.forEach((page, i) => {
          if (page.items.length !== size) {
            found.add(`${walk.label}, page ${i + 1}: ${page.items.length} items, expected ${size} (it is not the last page)`, page.exchange);
          }
        });
      }
      found.failIfAny('pages before the last must be full');
      if (judged === 0) passVacuously('no walk had a page before its last, so no page had to be full');
    },
  }),
);

export const lastPageNextNull = guarded(
  defineCheck({
    id: 'pagination.walk.last-page-next-null',
    suite: 'pagination',
    title: 'The page holding the last item answers pagination.next: null (no cursor to an empty page, no endless cursors)',
    level: 'PROFILE',
    specRef: 'PROFILE Messages ("The last page has pagination.next: null")',
    clauses: ['§2.4', '§8.3'],
    async run(ctx) {
      const set = await walkSet(ctx);
      const found = new PageProblems();
      let judged = 0;
      for (const { walk } of sizedWalks(set, ctx)) {
        const last = walk.pages[walk.pages.length - 1];
        if (!last || walk.failure) continue;
        if (walk.exhausted) {
          judged++;
          const holder = walk.pages.slice(0, -1).reverse().find((p) => p.items.length > 0);
          found.add(`${walk.label}: next is never null: ${holder ? `the page holding the last item carried next ${JSON.stringify(holder.next)}, which led to` : 'the walk ended on'} an empty page that answers next ${JSON.stringify(last.next)} again`, ...(holder ? [holder.exchange] : []), last.exchange);
          continue;
        }
        if (!walk.complete) {
          // Read-only walks are cut on purpose; a seeded walk needs only a few pages more than the seeds fill.
          if (set.mode === 'seeded') {
            judged++;
            found.add(`${walk.label}: after ${walk.pages.length} pages (more than the seeds fill) next is still not null`, last.exchange);
          }
          continue;
        }
        judged++;
        if (last.next !== null) {
          found.add(`${walk.label}: the last page's pagination.next is ${last.next === undefined ? 'absent' : JSON.stringify(last.next)}, expected null`, last.exchange);
        } else if (last.items.length === 0 && walk.pages.length > 1) {
          const holder = walk.pages[walk.pages.length - 2]!;
          found.add(`${walk.label}: the page holding the last item carried next ${JSON.stringify(holder.next)}, which led to an empty page`, holder.exchange, last.exchange);
        }
      }
      if (judged === 0) skip('no walk reached its end (read-only walks are cut after a bounded number of items)');
      found.failIfAny('the last page must answer next: null');
    },
  }),
  requiresCredential('apiKey'),
);
