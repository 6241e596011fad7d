/**
 * The mission, tested on a target we did not derive from our own code: test/targets/spec-target/ was written from
 * SERVICE-SPEC.md alone (its own statuses, error body, field limits, list names, X-RateLimit headers without a
 * window, raw-key webhook signatures). With the config that describes its choices it must pass with zero failed
 * checks at ANY level, run every MUST check, and pass none of them vacuously. Its negative control (the DEFAULT
 * config) is default-config.test.ts.
 */
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { startSpecTarget } from '../../targets/spec-target/index.ts';
import { brokenOf, explain, RUN_TIMEOUT_MS, runSpecTarget } from './run-spec-target.ts';
import { closeAfterEach } from '../../helpers/close-after-each.ts';

describe('spec-only target (correct)', () => {
  const closing = closeAfterEach();

  it('speaks its own conventions (so certifying it proves something)', async () => {
    const target = closing(await startSpecTarget());
    const bearer = { authorization: `Bearer ${target.credentials.apiKey}`, 'content-type': 'application/json' };
    const send = await request(`${target.baseUrl}/v1/whatsapp/messages`, { method: 'POST', headers: bearer, body: JSON.stringify({ to: '15551234567', text: 'hi', extra: 1 }) });
    expect(send.statusCode).toBe(202);
    expect(send.headers['x-ratelimit-limit']).toBe('40');
    expect(send.headers['x-ratelimit-reset']).toBeUndefined();
    expect(send.headers['ratelimit-policy']).toBeUndefined();
    await send.body.dump();

    const invalid = await request(`${target.baseUrl}/v1/whatsapp/messages`, { method: 'POST', headers: bearer, body: JSON.stringify({ to: '+1 555', text: 'hi' }) });
    expect(invalid.statusCode).toBe(400);
    expect(await invalid.body.json()).toEqual({ message: 'to must be digits with country code', field: 'to' });

    const list = await request(`${target.baseUrl}/v1/whatsapp/messages?per_page=3`, { headers: bearer });
    expect(((await list.body.json()) as { pagination: { limit: number } }).pagination.limit).toBe(3);
    const wrongMethod = await request(`${target.baseUrl}/v1/whatsapp/messages`, { method: 'PATCH', headers: bearer });
    expect(wrongMethod.statusCode).toBe(404);
    await wrongMethod.body.dump();
  });

  it(
    'is certified with zero failed checks at any level when its config describes it',
    async () => {
      const { outcome } = await runSpecTarget();
      const { report } = outcome;
      expect(brokenOf(outcome), `checks that failed or errored against a correct target:\n${explain(outcome)}`).toEqual([]);
      expect(report.summary.byLevel.MUST.skipped, explain(outcome)).toBe(0);
      expect(report.summary.vacuous, explain(outcome)).toBe(0);
      // On a loaded machine a SHOULD/PROFILE time judgement may say "could not decide" (a warning, never a failure),
      // as in cli/run.test.ts and the serve tour: the one difference load may make. A MUST one never may.
      expect(report.summary.byLevel.MUST.undecided, explain(outcome)).toBe(0);
      expect(report.verdict, explain(outcome)).toBe((report.summary.undecided ?? 0) > 0 ? 'certified-with-warnings' : 'certified');
      expect(outcome.exitCode).toBe(0);
      expect(report.summary.passed).toBeGreaterThanOrEqual(120);
    },
    RUN_TIMEOUT_MS,
  );
});
