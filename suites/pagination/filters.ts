/**
 * Pagination filters on the seeded data: `from` (exact sender), `since` (inclusive) and `until` (exclusive).
 * The bounds are timestamps the target itself answered for seeded messages, so the inclusive/exclusive edge
 * is hit exactly. Each filter is tested alone, so a target that ignores one fails only that check.
 */
import { defineCheck } from '../../src/conformance/check.ts';
import { fail } from '../../src/conformance/outcomes.ts';
import type { CheckContext } from '../../src/conformance/context.ts';
import { guarded, requiresCredential, requiresSandbox } from '../../src/conformance/preconditions.ts';
import { compareAscending, timeKey } from './lib/list-order.ts';
import { idsOf, walkList, type ListFilter } from './lib/list-walk.ts';
import { requireSeed, type Seed, type SeededMessage } from '../lib/message-seed.ts';

/** Walks the list with a filter at the maximum page size; returns the ids listed. */
async function filteredIds(ctx: CheckContext, seed: Seed, filter: ListFilter, label: string): Promise<string[]> {
  const { maxLimit } = ctx.config.api.pagination;
  const walk = await walkList(ctx, { label, limit: maxLimit, filter, maxPages: Math.ceil((seed.messages.length + 1) / maxLimit) + 3 });
  if (walk.failure) fail(`the list filtered by ${label} did not answer: ${walk.failure.message}`);
  return idsOf(walk);
}

function compareSets(expected: readonly SeededMessage[], got: readonly string[], what: string): void {
  const want = new Set(expected.map((m) => m.id));
  const have = new Set(got);
  const missing = [...want].filter((id) => !have.has(id));
  const unexpected = [...have].filter((id) => !want.has(id));
  if (missing.length > 0 || unexpected.length > 0) {
    fail(`${what}: expected ${want.size} items, got ${have.size} (${missing.length} missing, ${unexpected.length} that do not match)`, {
      expected: want.size,
      actual: have.size,
      missing: missing.slice(0, 10),
      unexpected: unexpected.slice(0, 10),
    });
  }
}

/** The seeds oldest first, and the one a third of the way in (its timestamp is the bound tested). */
function pivot(seed: Seed, fraction: number): { sorted: SeededMessage[]; at: SeededMessage } {
  const sorted = [...seed.messages].sort((a, b) => compareAscending(a, b));
  return { sorted, at: sorted[Math.floor(sorted.length * fraction)]! };
}

export const filterFrom = guarded(
  defineCheck({
    id: 'pagination.filter.from',
    suite: 'pagination',
    title: 'The from filter lists exactly the messages of that sender (the other sender\'s decoy is not listed)',
    level: 'PROFILE',
    specRef: 'PROFILE Messages ("from (exact sender number)"); api.query.from',
    clauses: ['§4.list'],
    async run(ctx) {
      const seed = await requireSeed(ctx);
      const ids = await filteredIds(ctx, seed, { from: seed.from }, `from=${seed.from}`);
      if (ids.includes(seed.decoy.id)) fail(`filtered by from=${seed.from}, the list included ${seed.decoy.id}, a message from ${seed.decoy.from}`);
      compareSets(seed.messages, ids, `filtered by from=${seed.from}`);
    },
  }),
  requiresCredential('apiKey'),
  requiresSandbox,
);

export const filterSinceInclusive = guarded(
  defineCheck({
    id: 'pagination.filter.since-inclusive',
    suite: 'pagination',
    title: 'since lists only messages at or after it: a message exactly at since is included',
    level: 'PROFILE',
    specRef: 'PROFILE Messages ("since / until (ISO 8601; since inclusive, until exclusive)"); api.query.since',
    clauses: ['§4.list'],
    async run(ctx) {
      const seed = await requireSeed(ctx);
      const { sorted, at } = pivot(seed, 1 / 3);
      const expected = sorted.filter((m) => timeKey(m.timestamp) >= timeKey(at.timestamp));
      const ids = await filteredIds(ctx, seed, { from: seed.from, since: at.timestamp }, `since=${at.timestamp}`);
      compareSets(expected, ids, `filtered by since=${at.timestamp} (inclusive)`);
    },
  }),
  requiresCredential('apiKey'),
  requiresSandbox,
);

export const filterUntilExclusive = guarded(
  defineCheck({
    id: 'pagination.filter.until-exclusive',
    suite: 'pagination',
    title: 'until lists only messages before it: a message exactly at until is excluded',
    level: 'PROFILE',
    specRef: 'PROFILE Messages ("since / until (ISO 8601; since inclusive, until exclusive)"); api.query.until',
    clauses: ['§4.list'],
    async run(ctx) {
      const seed = await requireSeed(ctx);
      const { sorted, at } = pivot(seed, 2 / 3);
      const expected = sorted.filter((m) => timeKey(m.timestamp) < timeKey(at.timestamp));
      const ids = await filteredIds(ctx, seed, { from: seed.from, until: at.timestamp }, `until=${at.timestamp}`);
      compareSets(expected, ids, `filtered by until=${at.timestamp} (exclusive)`);
    },
  }),
  requiresCredential('apiKey'),
  requiresSandbox,
);
