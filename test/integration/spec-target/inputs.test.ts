/**
 * The inputs suite against the spec-only target, which parses URLs the way a WHATWG URL parser does: it takes an
 * unpaired surrogate in a URL's path (stored percent-encoded), a legal reading that no document forbids. Every
 * invalid body the suite sends must break a rule someone stated, so none carries an unpaired surrogate and the
 * suite passes whole; the surrogate is sent only as a hostile body, which must merely not get a 5xx.
 */
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { startSpecTarget } from '../../targets/spec-target/index.ts';
import { brokenOf, explain, quick, RUN_TIMEOUT_MS, runSpecTarget } from './run-spec-target.ts';

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
      const { outcome } = await runSpecTarget(quick({ overrides: { conformance: { suites: ['inputs'] } } }));
      const checks = outcome.report.checks;
      const operations = ['campaign', 'login', 'sandbox-inbound', 'send-message', 'webhook'];
      const families = ['fields', 'values'];
      expect(checks.map((c) => c.id).sort()).toEqual([
        ...operations.flatMap((op) => [...families.map((f) => `inputs.${op}.invalid-rejected.${f}`), `inputs.${op}.valid-accepted`]),
        'inputs.hostile-bodies-no-5xx',
        'inputs.send-message.long-form-text-accepted',
      ].sort());
      expect(checks.filter((c) => c.status !== 'passed' || c.vacuous !== undefined), explain(outcome)).toEqual([]);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    'verbatim-url: a target that hands the hostile URL back as sent fails no standing check for the harness\'s own input',
    async () => {
      const { outcome } = await runSpecTarget(quick({ variant: 'verbatim-url', overrides: { conformance: { suites: ['inputs', 'standing'] } } }));
      expect(brokenOf(outcome), explain(outcome)).toEqual([]);
      const schemas = outcome.report.checks.find((c) => c.id === 'standing.responses-match-schemas')!;
      expect(schemas.status, explain(outcome)).toBe('passed');
      expect(schemas.vacuous).toBeUndefined();
    },
    RUN_TIMEOUT_MS,
  );
});
