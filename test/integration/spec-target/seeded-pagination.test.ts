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
import { describe, expect, it } from 'vitest';
import { brokenOf, explain, RUN_TIMEOUT_MS, runSpecTarget } from './run-spec-target.ts';

const PAGINATION_ONLY = { conformance: { suites: ['pagination'] } };

describe('spec-only target, paging faults', () => {
  it(
    'endless-next: only the PROFILE last-page check fails; the MUST walk rule passes, not vacuously',
    async () => {
      const { outcome } = await runSpecTarget({ variant: 'endless-next', overrides: PAGINATION_ONLY });
      expect(brokenOf(outcome), explain(outcome)).toEqual(['PROFILE pagination.walk.last-page-next-null']);
      const lastPage = outcome.report.checks.find((c) => c.id === 'pagination.walk.last-page-next-null')!;
      expect(lastPage.message).toMatch(/next is never null: the page holding the last item carried next "[^"]+", which led to an empty page that answers next "[^"]+" again/);
      const walkRule = outcome.report.checks.find((c) => c.id === 'pagination.walk.each-item-once')!;
      expect(walkRule.status, explain(outcome)).toBe('passed');
      expect(walkRule.vacuous).toBeUndefined();
      // One suite ran: a selection, never a certification (it would have been certified with warnings).
      expect(outcome.report.verdict).toBe('selection-passed');
    },
    RUN_TIMEOUT_MS,
  );

  it(
    'static-page: the MUST walk rule decides (the config names the cursor) and fails on the cursor that never advances',
    async () => {
      const { outcome } = await runSpecTarget({ variant: 'static-page', overrides: PAGINATION_ONLY });
      const walkRule = outcome.report.checks.find((c) => c.id === 'pagination.walk.each-item-once')!;
      expect(walkRule.status, explain(outcome)).toBe('failed');
      expect(walkRule.message).toMatch(/page 2 repeats page 1 \(the cursor did not advance\) \(sent as "page_token", the cursor parameter the config names\)/);
      expect(brokenOf(outcome)).toContain('MUST pagination.walk.each-item-once');
      expect(outcome.report.verdict).toBe('not-certified');
    },
    RUN_TIMEOUT_MS,
  );

  it(
    'inclusive-cursor: the cursor checks see a cursor that is read (no "does not read" skip); the walk rule fails',
    async () => {
      const { outcome } = await runSpecTarget({ variant: 'inclusive-cursor', overrides: PAGINATION_ONLY });
      const garbled = outcome.report.checks.find((c) => c.id === 'pagination.cursor.garbled-not-5xx')!;
      expect(garbled.status, explain(outcome)).toBe('passed');
      for (const c of outcome.report.checks) expect(c.message ?? '', c.id).not.toMatch(/does not read|brought back exactly the first page/);
      expect(brokenOf(outcome), explain(outcome)).toContain('MUST pagination.walk.each-item-once');
    },
    RUN_TIMEOUT_MS,
  );
});
