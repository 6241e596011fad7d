/**
 * Skip reasons state what was observed. The numeric-id variant's send works (202) and answers its id as a number:
 * the checks that need a sent message's id say exactly that, never that no message could be sent.
 */
import { describe, expect, it } from 'vitest';
import { explain, quick, RUN_TIMEOUT_MS, runSpecTarget } from './run-spec-target.ts';

describe('spec-only target, skip reasons', () => {
  it(
    'numeric-id: a send that worked is reported as one whose id is a number, not as a send that failed',
    async () => {
      const { outcome } = await runSpecTarget(quick({ variant: 'numeric-id', overrides: { conformance: { suites: ['schemas', 'webhooks'] } } }));
      const checks = outcome.report.checks;
      const spec = checks.find((c) => c.id === 'schemas.send-response.spec-fields')!;
      expect(spec.status, explain(outcome)).toBe('failed');
      const skipped = checks.filter((c) => c.status === 'skipped' && /sending a message/.test(c.message ?? ''));
      expect(skipped.length, explain(outcome)).toBeGreaterThan(0);
      for (const c of skipped) expect(c.message).toMatch(/sending a message answered 202, but its id is a number \(\d+\)/);
      for (const c of checks) expect(c.message ?? '', c.id).not.toMatch(/no message could be sent|could not be sent/);
      const distinct = checks.find((c) => c.id === 'schemas.send-response.distinct-ids')!;
      expect(distinct.message, explain(outcome)).toMatch(/both sends worked, but the first id is a number/);
    },
    RUN_TIMEOUT_MS,
  );
});
