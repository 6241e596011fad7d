/**
 * The JWT lifetime and claim checks against a small JWT target (test/targets/jwt-target.ts): a token expired at
 * issue fails the check about issuing it (not 23 skips with a false reason); long-lived tokens are tested with
 * tokens minted from a shared key (credentials.jwtSigning), and without one the checks say exactly why not.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { resultOf, runHarness } from '../../helpers/run-harness.ts';
import { startJwtTarget, type JwtTarget, type JwtTargetOptions } from '../../targets/jwt-target.ts';

const MINTED = ['auth.jwt.expired-rejected', 'auth.jwt.not-yet-valid-rejected', 'auth.jwt.other-audience-rejected', 'auth.jwt.other-issuer-rejected'];
let target: JwtTarget | undefined;
afterEach(async () => {
  await target?.close();
  target = undefined;
});

async function run(options: JwtTargetOptions, signing?: 'shared' | 'wrong') {
  target = await startJwtTarget(options);
  const jwtSigning = signing === 'shared' ? { alg: 'HS256' as const, key: target.key } : signing === 'wrong' ? { alg: 'HS256' as const, key: 'not-the-key' } : undefined;
  return runHarness({
    baseUrl: target.baseUrl,
    credentials: { login: target.login, ...(jwtSigning ? { jwtSigning } : {}) },
    suites: ['auth'],
    config: { conformance: { profile: { loginThrottling: false } } },
  });
}

describe('JWT lifetime and claims', () => {
  it('a static token already expired at issue fails auth.jwt.usable-at-issue, and every skip says why truly', async () => {
    const outcome = await run({ staticExpired: true });
    expect(resultOf(outcome, 'auth.jwt.usable-at-issue')).toMatchObject({ status: 'failed', level: 'MUST' });
    expect(resultOf(outcome, 'auth.jwt.usable-at-issue').message).toMatch(/unusable when issued: exp lies \d+ s in the past/);
    expect(outcome.report.verdict).toBe('not-certified');
    const skipped = outcome.report.checks.filter((c) => c.status === 'skipped');
    expect(skipped.map((c) => c.message).join('\n')).not.toMatch(/within a second/);
    expect(resultOf(outcome, 'auth.jwt.tampered-signature-rejected').message).toMatch(/already expired/);
  }, 120_000);

  it('long-lived tokens and no shared key: the lifetime checks skip, naming maxWaitSeconds and credentials.jwtSigning', async () => {
    const outcome = await run({ ttlSeconds: 3600 });
    expect(resultOf(outcome, 'auth.jwt.usable-at-issue').status).toBe('passed');
    const expired = resultOf(outcome, 'auth.jwt.expired-rejected');
    expect(expired.status).toBe('skipped');
    expect(expired.message).toMatch(/longer than conformance\.maxWaitSeconds .*no credentials\.jwtSigning/);
    for (const id of MINTED.slice(1)) expect(resultOf(outcome, id)).toMatchObject({ status: 'skipped', message: expect.stringMatching(/no credentials\.jwtSigning/) });
  }, 120_000);

  it('a shared key: minted expired, not-yet-valid, other-audience and other-issuer tokens are refused by a correct target', async () => {
    const outcome = await run({ ttlSeconds: 3600 }, 'shared');
    for (const id of MINTED) expect(resultOf(outcome, id).status, id).toBe('passed');
    // The shared key is a secret: no report shows it.
    expect(JSON.stringify(outcome.report)).not.toContain(target!.key);
  }, 120_000);

  it('a shared key finds a target that ignores exp (MUST) and one that ignores aud (SHOULD)', async () => {
    const outcome = await run({ ttlSeconds: 3600, ignore: ['exp', 'aud'] }, 'shared');
    expect(resultOf(outcome, 'auth.jwt.expired-rejected')).toMatchObject({ status: 'failed', level: 'MUST' });
    expect(resultOf(outcome, 'auth.jwt.other-audience-rejected')).toMatchObject({ status: 'failed', level: 'SHOULD' });
    expect(resultOf(outcome, 'auth.jwt.not-yet-valid-rejected').status).toBe('passed');
    expect(resultOf(outcome, 'auth.jwt.other-issuer-rejected').status).toBe('passed');
  }, 120_000);

  it('a key that does not match the target\'s: the minted checks skip, saying the control token was refused', async () => {
    const outcome = await run({ ttlSeconds: 3600 }, 'wrong');
    for (const id of MINTED) expect(resultOf(outcome, id)).toMatchObject({ status: 'skipped', message: expect.stringMatching(/is itself refused \(401\)/) });
  }, 120_000);
});
