/**
 * The spec-only target whose tokens live 24 h, deployed without sharing its signing key: nothing fails, but the two
 * MUST expiry checks cannot mint the tokens they need, say so by naming credentials.jwtSigning, and the run is
 * incomplete (exit 4) rather than certified.
 */
import { describe, expect } from 'vitest';
import { brokenOf, explain, itOnVariant, quick } from './run-spec-target.ts';

describe('spec-only target, legal oddity: tokens that live 24 h, signing key not shared', () => {
  itOnVariant('incomplete, saying why, when the deployment does not share its signing key', quick({ variant: 'long-token', env: { SPEC_JWT_SIGNING_KEY: '' } }), (outcome) => {
    expect(brokenOf(outcome), explain(outcome)).toEqual([]);
    const mustNotRun = outcome.report.checks.filter((c) => c.level === 'MUST' && c.status === 'skipped' && !c.notApplicable);
    expect(mustNotRun.map((c) => c.id).sort()).toEqual(['auth.jwt.expired-rejected', 'auth.jwt.not-yet-valid-rejected']);
    for (const c of mustNotRun) expect(c.message).toMatch(/credentials\.jwtSigning/);
    expect(outcome.report.verdict).toBe('incomplete');
    expect(outcome.exitCode).toBe(4);
  });
});
