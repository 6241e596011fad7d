/**
 * The security suite against the reference target (a real server on 127.0.0.1 port 0): every check decides and
 * none fails — the SSRF groups are refused, privileged fields rejected with 400 naming each, no secret in a list,
 * no internals in errors, no CORS, nosniff everywhere. The redirect check skips: the reference makes no request to
 * a webhook URL when it registers it, so there is nothing to observe.
 */
import { Socket } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { failedIds, runHarness } from '../../helpers/run-harness.ts';
import { credentialsFromReference } from '../../../src/job/open-target.ts';
import { startReferenceTarget } from '../../../src/target/index.ts';

describe('security suite against the reference target', () => {
  it('passes every check; the redirect one skips, with nothing to observe', async () => {
    const target = await startReferenceTarget({ host: '127.0.0.1', port: 0 });
    // Every connection this process opens meanwhile — the harness's and the reference target's own — is recorded:
    // the suite registers internal URLs but nothing may ever connect to one.
    const hosts: string[] = [];
    const connect = Socket.prototype.connect;
    const spy = vi.spyOn(Socket.prototype, 'connect').mockImplementation(function (this: Socket, ...args: unknown[]) {
      const first = args[0] as { host?: string; path?: string } | number | string;
      hosts.push(typeof first === 'object' && first !== null ? (first.path ? 'unix' : (first.host ?? 'localhost')) : typeof args[1] === 'string' ? args[1] : 'localhost');
      return (connect as (...a: unknown[]) => Socket).apply(this, args);
    });
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
      expect(hosts.length).toBeGreaterThan(0);
      expect(hosts.filter((host) => !/^(127\.|::1$|localhost$|unix$)/.test(host))).toEqual([]);
    } finally {
      spy.mockRestore();
      await target.close();
    }
  }, 120_000);
});
