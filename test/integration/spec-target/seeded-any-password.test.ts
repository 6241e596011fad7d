/**
 * The spec-only target whose login hands a token to any password: the MUST rule (SERVICE-SPEC §5 rules 2 and 5)
 * fails, not only the PROFILE 401 and the SHOULD no-enumeration checks.
 */
import { describe } from 'vitest';
import { expectNotCertified, itOnVariant, quick } from './run-spec-target.ts';

describe('spec-only target, seeded login fault: any-password', () => {
  itOnVariant(
    'a login that hands a token to any password fails the MUST rule (§5 rules 2 and 5), not only the PROFILE 401',
    quick({ variant: 'any-password' }),
    (outcome) => {
      expectNotCertified(outcome, ['MUST auth.jwt.bad-login-no-token', 'PROFILE auth.jwt.bad-login-401', 'SHOULD auth.jwt.bad-login-no-enumeration']);
    },
  );
});
