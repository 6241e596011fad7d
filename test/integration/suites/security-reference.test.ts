/**
 * The security suite against the reference target (a real server on 127.0.0.1 port 0): every check decides and
 * none fails — the SSRF groups are refused, privileged fields rejected with 400 naming each, no secret in a list,
 * no internals in errors, no CORS, nosniff everywhere. The redirect check skips: the reference makes no request to
 * a webhook URL when it registers it, so there is nothing to observe.
 */
import { describe, expect, it } from 'vitest';
import { failedIds, runHarness } from '../../helpers/run-harness.ts';
import { credentialsFromReference } from '../../../src/job/open-target.ts';
import { startReferenceTarget } from '../../../src/target/index.ts';

describe('security suite against the reference target', () => {
  it('passes every check; the redirect one skips, with nothing to observe', async () => {
    const target = await startReferenceTarget({ host: '127.0.0.1', port: 0 });
    try {
      const outcome = await runHarness({ baseUrl: target.baseUrl, credentials: credentialsFromReference(target.credentials), suites: ['security'] });
      const checks = outcome.report.checks;
      expect(checks.length).toBeGreaterThanOrEqual(12);
      expect(failedIds(outcome)).toEqual([]);
      expect(checks.filter((c) => c.status !== 'passed').map((c) => `${c.status} ${c.id}`)).toEqual(['skipped security.ssrf.redirect-not-followed']);
      expect(checks.filter((c) => c.vacuous !== undefined).map((c) => c.id)).toEqual([]);
      // Every accepted registration is deleted at once, and nothing internal was ever accepted.
      const list = await fetch(`${target.baseUrl}/v1/webhooks`, { headers: { authorization: `Bearer ${target.credentials.apiKeys.full}` } });
      expect(((await list.json()) as { data: unknown[] }).data).toEqual([]);
    } finally {
      await target.close();
    }
  }, 120_000);
});
