/**
 * The pagination suite: seeded (sandbox) or read-only walks at limit 1, the default and the maximum; filters;
 * arrivals during a walk; cursors and limits the list must reject.
 */
import type { Suite } from '../../src/conformance/registry.ts';
import { filterFrom, filterSinceInclusive, filterUntilExclusive } from './filters.ts';
import { garbledCursorClientError, garbledCursorRejected, limitOutOfRangeRejected } from './rejections.ts';
import { insertDuringWalk, sandboxSeeds } from './seeding.ts';
import { documentedOrder, noDuplicates, stableWalks, unionEqualsData } from './walk-content.ts';
import { limitIsSizeUsed, walkAdvancesEndsOnce } from './walk-rule.ts';
import { fullPages, lastPageNextNull, limitEchoesSize, nextLeadsToNextPage, pageWithinLimit } from './walk-pages.ts';

export const paginationSuite: Suite = {
  name: 'pagination',
  title: 'Pagination: cursor walks, filters, stability',
  checks: [
    sandboxSeeds,
    walkAdvancesEndsOnce,
    pageWithinLimit,
    nextLeadsToNextPage,
    limitIsSizeUsed,
    limitEchoesSize,
    fullPages,
    lastPageNextNull,
    unionEqualsData,
    noDuplicates,
    documentedOrder,
    stableWalks,
    filterFrom,
    filterSinceInclusive,
    filterUntilExclusive,
    insertDuringWalk,
    garbledCursorClientError,
    garbledCursorRejected,
    limitOutOfRangeRejected,
  ],
};
