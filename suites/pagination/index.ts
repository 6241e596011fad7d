/** The pagination suite. */
import type { Suite } from '../../src/conformance/registry.ts';

export const paginationSuite: Suite = {
  name: 'pagination',
  title: 'Pagination: cursor walks, filters, stability',
  checks: [],
};
