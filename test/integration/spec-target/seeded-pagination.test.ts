/**
 * Paging faults of the spec-only target, judged by the level of the rule each breaks. Its config names the cursor
 * parameter (api.query.cursor: page_token), so the MUST walk rule decides rather than skips.
 *   endless-next  next is never null (an empty page past the end hands its cursor back): PROFILE only — SERVICE-SPEC
 *                 §2.4 types next as a string and does not say how the end is marked.
 *   static-page   the list ignores the cursor (an OpenAPI mock's one example page): following next never advances,
 *                 a MUST finding, found within a bounded walk.
 *   inclusive-cursor the page after a cursor starts at the item it names: the cursor IS read (a skip reason must
 *                 not say otherwise), and the item listed twice is the walk rule's MUST finding.
 */
import { describe, expect } from 'vitest';
import { brokenOf, checkOf, explain, itOnVariant, quick } from './run-spec-target.ts';

const PAGINATION_ONLY = { conformance: { suites: ['pagination'] } };

describe('spec-only target, paging faults', () => {
  itOnVariant(
    'endless-next: only the PROFILE last-page check fails; the MUST walk rule passes, not vacuously',
    quick({ variant: 'endless-next', overrides: PAGINATION_ONLY }),
    (outcome) => {
      expect(brokenOf(outcome), explain(outcome)).toEqual(['PROFILE pagination.walk.last-page-next-null']);
      const lastPage = checkOf(outcome, 'pagination.walk.last-page-next-null');
      expect(lastPage.message).toMatch(/next is never null: the page holding the last item carried next "[^"]+", which led to an empty page that answers next "[^"]+" again/);
      const walkRule = checkOf(outcome, 'pagination.walk.each-item-once');
      expect(walkRule.status, explain(outcome)).toBe('passed');
      expect(walkRule.vacuous).toBeUndefined();
      // One suite ran: a selection, never a certification (it would have been certified with warnings).
      expect(outcome.report.verdict).toBe('selection-passed');
    },
  );

  itOnVariant(
    'static-page: the MUST walk rule decides (the config names the cursor) and fails on the cursor that never advances',
    quick({ variant: 'static-page', overrides: PAGINATION_ONLY }),
    (outcome) => {
      const walkRule = checkOf(outcome, 'pagination.walk.each-item-once');
      expect(walkRule.status, explain(outcome)).toBe('failed');
      expect(walkRule.message).toMatch(/page 2 repeats page 1 \(the cursor did not advance\) \(sent as "page_token", the cursor parameter the config names\)/);
      expect(brokenOf(outcome)).toContain('MUST pagination.walk.each-item-once');
      expect(outcome.report.verdict).toBe('not-certified');
    },
  );

  itOnVariant(
    'inclusive-cursor: the cursor checks see a cursor that is read (no "does not read" skip); the walk rule fails',
    quick({ variant: 'inclusive-cursor', overrides: PAGINATION_ONLY }),
    (outcome) => {
      expect(checkOf(outcome, 'pagination.cursor.garbled-not-5xx').status, explain(outcome)).toBe('passed');
      for (const c of outcome.report.checks) expect(c.message ?? '', c.id).not.toMatch(/does not read|brought back exactly the first page/);
      expect(brokenOf(outcome), explain(outcome)).toContain('MUST pagination.walk.each-item-once');
    },
  );
});
