/**
 * The inputs suite against the spec-only target, which parses URLs the way a WHATWG URL parser does: it takes an
 * unpaired surrogate in a URL's path (stored percent-encoded), a legal reading that no document forbids. Every
 * invalid body the suite sends must break a rule someone stated, so none carries an unpaired surrogate and the
 * suite passes whole; the surrogate is sent only as a hostile body, which must merely not get a 5xx.
 */
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { startSpecTarget } from '../../targets/spec-target/index.ts';
import { explain, RUN_TIMEOUT_MS, runSpecTarget } from './run-spec-target.ts';

describe('inputs suite against the spec-only target', () => {
  it('the target takes a URL with an unpaired surrogate in its path (so a case built on one would fail it)', async () => {
    const target = await startSpecTarget();
    try {
      const res = await request(`${target.baseUrl}/v1/hooks`, {
        method: 'POST',
        headers: { authorization: `Bearer ${target.credentials.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url: 'https://hooks.example.invalid/in\ud800', events: ['message.received'] }),
      });
      expect(res.statusCode).toBe(201);
      expect(((await res.body.json()) as { url: string }).url).toBe('https://hooks.example.invalid/in%EF%BF%BD');
    } finally {
      await target.close();
    }
  });

  it(
    'passes every inputs check: no invalid case rests on an unpaired surrogate',
    async () => {
      const { outcome } = await runSpecTarget({ overrides: { conformance: { suites: ['inputs'] } } });
      const checks = outcome.report.checks;
      expect(checks.map((c) => c.id).sort()).toEqual([
        'inputs.campaign.invalid-rejected',
        'inputs.campaign.valid-accepted',
        'inputs.hostile-bodies-no-5xx',
        'inputs.login.invalid-rejected',
        'inputs.login.valid-accepted',
        'inputs.sandbox-inbound.invalid-rejected',
        'inputs.sandbox-inbound.valid-accepted',
        'inputs.send-message.invalid-rejected',
        'inputs.send-message.long-form-text-accepted',
        'inputs.send-message.valid-accepted',
        'inputs.webhook.invalid-rejected',
        'inputs.webhook.valid-accepted',
      ]);
      expect(checks.filter((c) => c.status !== 'passed' || c.vacuous !== undefined), explain(outcome)).toEqual([]);
    },
    RUN_TIMEOUT_MS,
  );
});
