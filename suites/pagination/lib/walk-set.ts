/**
 * The walks the walk checks share (memoised): limit 1, the default (no limit sent), the maximum
 * (api.pagination.maxLimit), and the default once more for stability. With a sandbox they are filtered by the
 * seed's sender and must list exactly the seeds; without one they run read-only over the data that is there,
 * cut after a bounded number of items, and are compared with each other over the range both cover.
 */
import type { CheckContext } from '../../../src/conformance/context.ts';
import { fail } from '../../../src/conformance/outcomes.ts';
import type { Exchange } from '../../../src/http/exchange.ts';
import type { ListOrder } from './list-order.ts';
import { walkList, type Walk } from './list-walk.ts';
import { requireSeed, seedingApplies, type Seed } from '../../lib/message-seed.ts';

export interface WalkSet {
  /** `seeded`: filtered to this run's seeds; `read-only`: whatever the target lists. */
  mode: 'seeded' | 'read-only';
  seed?: Seed;
  one: Walk;
  byDefault: Walk;
  max: Walk;
  /** A second walk at the default limit, for stability. */
  again: Walk;
  order: ListOrder;
}

/** Read-only walks stop after about this many items (limit-1 walks after READ_ONLY_MAX_PAGES pages). */
const READ_ONLY_ITEM_CAP = 300;
const READ_ONLY_MAX_PAGES = 60;

export function walkSet(ctx: CheckContext): Promise<WalkSet> {
  const seeded = seedingApplies(ctx);
  // Seeding failures skip the checks (requireSeed); they are not cached, so each check says why.
  const seedPromise = seeded ? requireSeed(ctx) : Promise.resolve(undefined);
  return seedPromise.then((seed) => ctx.memo('pagination.walks', () => computeWalks(ctx, seed)));
}

/** The walks over whatever the target lists, without seeds (memoised apart from the seeded ones). */
export function readOnlyWalkSet(ctx: CheckContext): Promise<WalkSet> {
  return ctx.memo('pagination.walks.read-only', () => computeWalks(ctx, undefined));
}

async function computeWalks(ctx: CheckContext, seed: Seed | undefined): Promise<WalkSet> {
  const { defaultLimit, maxLimit, order } = ctx.config.api.pagination;
  const filter = seed ? { from: seed.from } : {};
  const pagesFor = (size: number): number =>
    seed ? Math.ceil(seed.messages.length / size) + 3 : Math.min(READ_ONLY_MAX_PAGES, Math.ceil(READ_ONLY_ITEM_CAP / size) + 1);
  const one = await walkList(ctx, { label: 'limit 1', limit: 1, filter, maxPages: pagesFor(1) });
  const byDefault = await walkList(ctx, { label: 'the default limit', filter, maxPages: pagesFor(defaultLimit) });
  const max = await walkList(ctx, { label: `the maximum limit (${maxLimit})`, limit: maxLimit, filter, maxPages: pagesFor(maxLimit) });
  const again = await walkList(ctx, { label: 'the default limit, second walk', filter, maxPages: pagesFor(defaultLimit) });
  return { mode: seed ? 'seeded' : 'read-only', ...(seed ? { seed } : {}), one, byDefault, max, again, order };
}

/** The walks with the page size each should have had. */
export function sizedWalks(set: WalkSet, ctx: CheckContext): Array<{ walk: typeof set.one; size: number }> {
  const { defaultLimit, maxLimit } = ctx.config.api.pagination;
  return [
    { walk: set.one, size: 1 },
    { walk: set.byDefault, size: defaultLimit },
    { walk: set.max, size: maxLimit },
    { walk: set.again, size: defaultLimit },
  ];
}

/** What a walk check found wrong, page by page, and the exchanges that show it. */
export class PageProblems {
  readonly problems: string[] = [];
  readonly shown: Exchange[] = [];

  get count(): number {
    return this.problems.length;
  }

  add(problem: string, ...exchanges: Exchange[]): void {
    this.problems.push(problem);
    this.shown.push(...exchanges);
  }

  /** Fails the check when anything was found: `rule`, then the first five problems; six exchanges at most. */
  failIfAny(rule: string, details: Record<string, unknown> = {}): void {
    if (this.count > 0) fail(`${rule}: ${this.problems.slice(0, 5).join('; ')}`, { problems: this.problems, ...details }, this.shown.slice(0, 6));
  }
}
