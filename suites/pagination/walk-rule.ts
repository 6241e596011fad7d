/**
 * The walk rule of SERVICE-SPEC §2.4, at MUST: `pagination.next` is the "Cursor for the next page", so a walk
 * that follows it over a list nobody changes meanwhile ADVANCES (no cursor answers a page with items again) and
 * yields EVERY item EXACTLY ONCE (no repeat of an earlier item; once the walk runs out of items, none skipped) —
 * within a bounded number of pages. How the end is marked is not §2.4's: it types next as a string, so a walk ends
 * at `next: null` / absent or on an empty page reached through a cursor, and a next that is never null is PROFILE's
 * finding alone (pagination.walk.last-page-next-null), like page sizes and the 400 for a garbled cursor.
 *
 * A list known not to change is the seeded one: this run's messages from a sender number no one else uses, with
 * past timestamps, listed through the `from` filter. Items that are not seeds (a `from` filter the target does
 * not apply: PROFILE, pagination.filter.from) make the list one the run does not control, so for that walk only
 * "advances" is judged. Without a sandbox, only "advances" can be judged, and the pass says so (vacuous).
 *
 * The parameter that carries the cursor is the config's (api.query.cursor) or PROFILE's ("cursor"). When the config
 * names it, the target's operators said how a cursor is sent, so a cursor that does not advance is the target's
 * finding. When it is PROFILE's default and the target does not read a cursor under that name at all (a garbled
 * one brings back the first page too), a repeated page may be the config's omission: that walk is not judged.
 */
import { randomBytes } from 'node:crypto';
import { defineCheck } from '../../src/conformance/check.ts';
import { CheckSkipped, passVacuously, skip } from '../../src/conformance/outcomes.ts';
import type { CheckContext } from '../../src/conformance/context.ts';
import { listMessages } from '../../src/conformance/operations.ts';
import type { Exchange } from '../../src/http/exchange.ts';
import { requiresCredential } from '../../src/conformance/preconditions.ts';
import { idsOf, reachedEnd, type Walk } from './lib/list-walk.ts';
import { PageProblems, readOnlyWalkSet, sizedWalks, walkSet } from './lib/walk-set.ts';

function sameIds(a: Walk['pages'][number], b: Walk['pages'][number]): boolean {
  return a.items.length > 0 && a.items.map((x) => x.id).join('\n') === b.items.map((x) => x.id).join('\n');
}

/** Pages of the walk where following next did not advance: the same page again, or the same cursor handed back. */
function stalls(walk: Walk): Array<{ page: number; what: string; shown: Exchange[] }> {
  const out: Array<{ page: number; what: string; shown: Exchange[] }> = [];
  walk.pages.forEach((page, i) => {
    if (!page.viaCursor || i === 0) return;
    const before = walk.pages[i - 1]!;
    if (sameIds(before, page)) out.push({ page: i + 1, what: `page ${i + 1} repeats page ${i} (the cursor did not advance)`, shown: [before.exchange, page.exchange] });
    // An empty page that hands its cursor back is the end of the list (§2.4 does not say how the end is marked).
    else if (page.items.length > 0 && typeof page.next === 'string' && page.next === before.next) out.push({ page: i + 1, what: `page ${i + 1} hands back the cursor it was reached with`, shown: [before.exchange, page.exchange] });
  });
  return out;
}

/**
 * Whether the target reads a cursor under the configured parameter name: a cursor it never issued is refused, or
 * at least does not bring back the first page. A target that answers the first page to anything sent there may
 * page with another parameter the config does not describe (PROFILE), so a page repeated after following next
 * proves nothing about §2.4 there.
 */
async function readsCursor(ctx: CheckContext, walk: Walk, from: string | undefined): Promise<boolean> {
  const res = await listMessages(ctx, { ...(from ? { from } : {}), limit: walk.limit, cursor: `harness-not-a-cursor-${randomBytes(6).toString('hex')}` });
  if (res.status < 200 || res.status > 299) return true;
  const data = res.json<{ data?: unknown }>()?.data;
  const ids = Array.isArray(data) ? data.map((item) => String((item as { id?: unknown })?.id)) : [];
  const first = walk.pages[0]?.items.map((x) => x.id) ?? [];
  return ids.join('\n') !== first.join('\n');
}

export const walkAdvancesEndsOnce = requiresCredential('apiKey')(
  defineCheck({
    id: 'pagination.walk.each-item-once',
    suite: 'pagination',
    title: 'Following pagination.next over an unchanging list advances and yields every item exactly once (no repeat, none skipped), within a bounded walk',
    level: 'MUST',
    specRef: 'SERVICE-SPEC §2.4 (pagination.next: "Cursor for the next page"), §8.3; the cursor is sent as api.query.cursor (PROFILE "cursor"); how the last page is marked is PROFILE (pagination.walk.last-page-next-null)',
    clauses: ['§2.4', '§8.3', '§4.list'],
    async run(ctx) {
      const cursorNamed = ctx.config.given?.includes('api.query.cursor') === true;
      let seedFailure: string | undefined;
      // Seeding failed (a mock's sandbox, say): with the cursor named, "advances" is still judged on the list as it is.
      const set = await walkSet(ctx).catch(async (err: unknown) => {
        if (!cursorNamed || !(err instanceof CheckSkipped)) throw err;
        seedFailure = err.message;
        return readOnlyWalkSet(ctx);
      });
      const found = new PageProblems();
      const seedIds = set.seed ? new Set(set.seed.messages.map((m) => m.id)) : undefined;
      const ambiguous: string[] = [];
      let advanceJudged = 0;
      let judgedWhole = 0;
      const notJudged: string[] = [];
      for (const { walk } of sizedWalks(set, ctx)) {
        const stalled = stalls(walk);
        if (stalled.length > 0 && !cursorNamed && !(await readsCursor(ctx, walk, set.seed?.from))) {
          ambiguous.push(`${walk.label}: following next brought back the same page, but a garbled cursor sent as "${ctx.config.api.query.cursor}" is not refused either, so the target may page with another parameter (describe it in api.query.cursor) or ignore its cursors; pagination.walk.next-leads-to-next-page reports it`);
          continue;
        }
        if (walk.pages.some((p) => p.viaCursor)) advanceJudged++;
        for (const stall of stalled.slice(0, 2)) {
          found.add(`${walk.label}: ${stall.what}${cursorNamed ? ` (sent as "${ctx.config.api.query.cursor}", the cursor parameter the config names)` : ''}`, ...stall.shown);
        }
        if (walk.failure) {
          notJudged.push(`${walk.label}: ${walk.failure.message}`);
          continue;
        }
        if (!seedIds) continue;
        const ids = idsOf(walk);
        if (ids.some((id) => !seedIds.has(id))) {
          notJudged.push(`${walk.label}: it listed items that are not this run's seeds, so the list was not one the run controls`);
          continue;
        }
        judgedWhole++;
        const counts = new Map<string, number>();
        for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
        const repeated = [...counts].filter(([, n]) => n > 1).map(([id]) => id);
        if (repeated.length > 0) {
          found.add(`${walk.label}: ${repeated.length} item(s) listed more than once (${repeated.slice(0, 3).join(', ')})`, ...walk.pages.filter((p) => p.items.some((x) => repeated.includes(x.id))).map((p) => p.exchange).slice(0, 3));
        }
        if (!reachedEnd(walk)) {
          // Cut by the bound while pages still listed items, none of them twice: pages smaller than the limit asked
          // can need more pages than the bound allows, which §2.4 does not forbid, so "none skipped" is not judged.
          if (repeated.length === 0) notJudged.push(`${walk.label}: after ${walk.pages.length} pages (the bound) pages still listed items, so whether any was skipped was not judged`);
        } else {
          const skipped = [...seedIds].filter((id) => !counts.has(id));
          if (skipped.length > 0) {
            found.add(`${walk.label}: ${skipped.length} of ${seedIds.size} items never listed before the walk ran out of items (${skipped.slice(0, 3).join(', ')})`, ...walk.pages.filter((p) => p.viaCursor).map((p) => p.exchange).slice(0, 2));
          }
        }
      }
      found.failIfAny('following pagination.next must walk the list once through', notJudged.length ? { notJudged } : {});
      // The cursor is not read under the configured name: the walks that did follow it say nothing about §2.4.
      if (ambiguous.length > 0) skip(ambiguous.join('; '));
      if (advanceJudged === 0 && judgedWhole === 0) skip(`no walk could be judged: ${[seedFailure, ...notJudged].filter(Boolean).join('; ') || 'the list has at most one page'}`);
      if (judgedWhole === 0) {
        passVacuously(`every cursor advanced, but no walk ran over a list known not to change (${seedIds ? notJudged.join('; ') : seedFailure ?? 'no sandbox seeds: conformance.sandbox, seedCount or credentials'}), so "every item exactly once" was not judged`);
      }
    },
  }),
);

/**
 * The page size a walk evidently used: the item count of its pages that had more to come — a following page that
 * did list items — when they all agree. A short last page says nothing (even with a next cursor that leads to an
 * empty page, which SERVICE-SPEC allows), and pages that disagree leave the size unknown.
 */
function sizeUsed(walk: Walk): number | undefined {
  const counts = new Set(walk.pages.filter((_, i) => (walk.pages[i + 1]?.items.length ?? 0) > 0).map((p) => p.items.length));
  if (counts.size !== 1) return undefined;
  const [count] = counts;
  return count! > 0 ? count : undefined;
}

export const limitIsSizeUsed = requiresCredential('apiKey')(
  defineCheck({
    id: 'pagination.walk.limit-is-size-used',
    suite: 'pagination',
    title: 'pagination.limit is the page size the list used: pages followed by more items hold exactly that many',
    level: 'MUST',
    specRef: 'SERVICE-SPEC §2.4 (pagination.limit: "Page size used"), §8.3; the sizes asked for and the default are PROFILE (pagination.walk.limit-echoes-size)',
    clauses: ['§2.4', '§8.3'],
    async run(ctx) {
      const set = await walkSet(ctx);
      const found = new PageProblems();
      let judged = 0;
      for (const { walk } of sizedWalks(set, ctx)) {
        const used = sizeUsed(walk);
        if (used === undefined) continue;
        judged++;
        const wrong = walk.pages.filter((p) => p.limit !== used);
        if (wrong.length > 0) {
          found.add(`${walk.label}: pages with more to come held ${used} item(s), but pagination.limit said ${[...new Set(wrong.map((p) => JSON.stringify(p.limit)))].join(', ')}`, ...wrong.slice(0, 2).map((p) => p.exchange));
        }
      }
      found.failIfAny('pagination.limit must be the page size used');
      if (judged === 0) skip('no walk had pages with more to come of one size, so the page size used could not be observed');
    },
  }),
);
