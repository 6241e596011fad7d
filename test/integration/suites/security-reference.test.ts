/**
 * The security suite against the reference target (a real server on 127.0.0.1 port 0): every check decides and
 * none fails — the SSRF groups are refused, privileged fields rejected with 400 naming each, no secret in a list,
 * no internals in errors, no CORS, nosniff everywhere, and the one delivery to a redirecting loopback URL is not
 * followed.
 */
import { createServer, type Server } from 'node:http';
import { Socket, type AddressInfo } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { failedIds, resultOf, runHarness } from '../../helpers/run-harness.ts';
import { credentialsFromReference } from '../../../src/job/open-target.ts';
import { startReferenceTarget } from '../../../src/target/index.ts';

describe('security suite against the reference target', () => {
  it('passes every check, the redirect one on a delivery', async () => {
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
      expect(checks.filter((c) => c.status !== 'passed').map((c) => `${c.status} ${c.id}`)).toEqual([]);
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

  /**
   * A careless target that follows redirects when it fetches a webhook URL: at registration, or on the delivery a
   * sandbox inbound message causes. It fetches only loopback URLs (the harness's own listener) and records the rest,
   * connecting nowhere else; every other route answers 404.
   */
  async function redirectFollower(when: 'registration' | 'delivery'): Promise<{ server: Server; baseUrl: string; refused: string[] }> {
    const refused: string[] = [];
    let hook: string | undefined;
    const follow = async (url: string) => void (await fetch(url, { method: 'POST', redirect: 'follow', signal: AbortSignal.timeout(5_000) }).catch(() => undefined));
    const server = createServer((req, res) => {
      let text = '';
      req.on('data', (chunk: Buffer) => (text += chunk.toString()));
      req.on('end', () => {
        void (async () => {
          const json = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
          if (req.method === 'POST' && req.url === '/v1/webhooks') {
            const url = String((JSON.parse(text || '{}') as { url?: unknown }).url ?? '');
            if (!url.startsWith('http://127.0.0.1:')) {
              refused.push(url);
              return json(422, { code: 'validation_failed' });
            }
            hook = url;
            if (when === 'registration') await follow(url);
            return json(201, { id: 'wh_1', url, events: ['message.received'], secret: 'whsec_follower', created_at: new Date().toISOString() });
          }
          if (req.method === 'DELETE' && req.url?.startsWith('/v1/webhooks/')) {
            hook = undefined;
            return res.writeHead(204).end();
          }
          if (req.method === 'POST' && req.url === '/v1/sandbox/inbound') {
            json(201, { id: 'msg_1', from: '15550001111', text: 'x', timestamp: new Date().toISOString() });
            if (when === 'delivery' && hook) await follow(hook);
            return;
          }
          json(404, { code: 'not_found' });
        })();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { server, baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, refused };
  }

  it.each(['registration', 'delivery'] as const)('catches a target that follows a redirect from a webhook URL on %s, at SHOULD', async (when) => {
    const target = await redirectFollower(when);
    try {
      const outcome = await runHarness({ baseUrl: target.baseUrl, credentials: { apiKey: 'sk_follower' }, suites: ['security'] });
      const result = resultOf(outcome, 'security.ssrf.redirect-not-followed');
      expect(result.status).toBe('failed');
      expect(result.level).toBe('SHOULD');
      expect(result.message).toContain(when === 'registration' ? 'webhook at registration' : 'webhook on delivery');
      expect(result.message).toContain('followed it to /followed');
      // The SSRF groups' internal URLs were refused by the fixture, never fetched.
      expect(target.refused.length).toBeGreaterThan(0);
    } finally {
      target.server.closeAllConnections();
      await new Promise((resolve) => target.server.close(resolve));
    }
  }, 120_000);
});
