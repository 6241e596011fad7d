/**
 * The faulty-target corpus as a whole: the cases the area files under test/integration/faulty/ run. There are at
 * least 15, and no two share a name (a name is a test's title, and what a failure is reported under).
 */
import { describe, expect, it } from 'vitest';
import type { FaultCase } from '../../targets/fault-case.ts';
import { AUTH_FAULTS } from '../../targets/faults/auth.ts';
import { DATA_FAULTS } from '../../targets/faults/data.ts';
import { ERROR_FAULTS } from '../../targets/faults/errors.ts';
import { INPUT_FAULTS } from '../../targets/faults/inputs.ts';
import { RATELIMIT_FAULTS } from '../../targets/faults/ratelimit.ts';
import { SECURITY_FAULTS } from '../../targets/faults/security.ts';
import { WEBHOOK_FAULTS } from '../../targets/faults/webhooks.ts';

const CASES: FaultCase[] = [...AUTH_FAULTS, ...DATA_FAULTS, ...ERROR_FAULTS, ...INPUT_FAULTS, ...RATELIMIT_FAULTS, ...WEBHOOK_FAULTS, ...SECURITY_FAULTS];

describe('faulty targets', () => {
  it('the corpus has at least 15 cases with unique names', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(15);
    expect(new Set(CASES.map((c) => c.name)).size).toBe(CASES.length);
  });
});
