/**
 * The reference target's webhook URL policy on a real target and real receivers on 127.0.0.1: every SSRF form is
 * refused at registration with problem+json, and delivery refuses again — a URL the policy refuses, a special-use
 * name (never looked up), a name that resolves to a refused address — while loopback and allow-listed names that
 * resolve to allowed addresses are delivered.
 */
import { describe, expect, it } from 'vitest';
import { buildApp, type BuiltApp } from '../../../src/target/app.ts';
import { TargetEventBus } from '../../../src/target/events.ts';
import type { ListedMessage } from '../../../src/target/model.ts';
import { WebhookStore } from '../../../src/target/store/webhooks.ts';
import { TimerRegistry } from '../../../src/target/timers.ts';
import { WebhookDelivery } from '../../../src/target/webhooks/delivery.ts';
import { WebhookUrlPolicy } from '../../../src/target/webhooks/url-policy.ts';
import { WebhookReceiver } from '../../../src/webhooks/receiver.ts';
import { bearer } from '../../helpers/reference-target.ts';
import { closeAfterEach } from '../../helpers/close-after-each.ts';
import { REFUSED_URLS } from '../../helpers/ssrf-urls.ts';

const closing = closeAfterEach();
/** The receiver of the test's deliver() call (closed after the test). */
let receiver: WebhookReceiver | undefined;

/** A built app on the default options or `options`, closed after the test. */
async function builtApp(options?: Parameters<typeof buildApp>[0]): Promise<BuiltApp> {
  const built = await buildApp(options);
  closing(built.app);
  return built;
}

describe('webhook registration refuses every SSRF form', () => {
  it('answers 422 problem+json naming the reason, and stores nothing', async () => {
    const built = await builtApp();
    const auth = bearer(built.credentials.apiKeys.full);
    for (const [url, reason] of REFUSED_URLS) {
      const res = await built.app.inject({ method: 'POST', url: '/v1/webhooks', headers: auth, payload: { url, events: ['message.received'] } });
      // A URL the schema already refuses (ftp:) is a 400; every other form reaches the policy.
      expect([400, 422], url).toContain(res.statusCode);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      if (res.statusCode === 422) expect(res.json(), url).toMatchObject({ code: 'webhook_url_refused', errors: [{ path: '/url', message: expect.stringMatching(reason) }] });
    }
    const list = await built.app.inject({ method: 'GET', url: '/v1/webhooks', headers: auth });
    expect(list.json().data).toEqual([]);
  });

  it('accepts loopback, special-use names and what --webhook-allow lists', async () => {
    const built = await builtApp({ webhooks: { allow: ['hooks.partner.com'] } });
    const auth = bearer(built.credentials.apiKeys.full);
    for (const url of ['http://127.0.0.1:9/x', 'http://[::1]:9/x', 'https://a.example.invalid/x', 'https://hooks.partner.com/x']) {
      const res = await built.app.inject({ method: 'POST', url: '/v1/webhooks', headers: auth, payload: { url, events: ['message.received'] } });
      expect(res.statusCode, url).toBe(201);
    }
  });
});

describe('webhook delivery checks again', () => {
  const message: ListedMessage = { id: 'msg_1', from: '15550000000', type: 'text', text: { body: 'hi' }, timestamp: '2030-01-01T00:00:00.000Z' } as unknown as ListedMessage;

  async function deliver(urls: string[] | ((receiverPort: string) => string[]), allow: string[], resolve?: (host: string, cb: (err: Error | null, a: Array<{ address: string; family: number }>) => void) => void) {
    receiver = closing(await WebhookReceiver.start());
    const store = new WebhookStore();
    const events = new TargetEventBus();
    const timers = new TimerRegistry();
    closing({ close: async () => timers.clearAll() });
    const failures: Array<{ url: string; reason: string; willRetry: boolean }> = [];
    closing(new WebhookDelivery({
      store,
      events,
      timers,
      options: { attempts: 3, baseDelayMs: 10, timeoutMs: 2000, allow },
      policy: new WebhookUrlPolicy(allow),
      now: Date.now,
      ...(resolve ? { resolve } : {}),
      onAttemptFailed: (f) => failures.push(f),
    }));
    // Stored directly, as if registered under another policy: delivery must not trust registration.
    const list = typeof urls === 'function' ? urls(new URL(receiver.url).port) : urls;
    list.forEach((url, i) => store.add({ id: `wh_${i}`, url, events: ['message.received'], secret: 'whsec_dGVzdHNlY3JldHRlc3RzZWNyZXQ=', created_at: message.timestamp }, 'acct_1'));
    events.emit('message.received', message, 'acct_1');
    return failures;
  }

  const settle = async (failures: unknown[], expected: number) => {
    for (let i = 0; i < 200 && failures.length < expected; i++) await new Promise((r) => setTimeout(r, 10));
  };

  it('refuses a refused URL and a special-use name at once, with no retry and no lookup, and delivers nothing', async () => {
    let lookups = 0;
    const failures = await deliver(['http://169.254.169.254/latest', 'http://[::ffff:a9fe:a9fe]/', 'https://hooks.example.invalid/x'], [], (_h, cb) => {
      lookups += 1;
      cb(null, [{ address: '127.0.0.1', family: 4 }]);
    });
    await settle(failures, 3);
    expect(failures.map((f) => [f.reason.replace(/:.*/, ''), f.willRetry])).toEqual([
      ['refused by the webhook URL policy', false],
      ['refused by the webhook URL policy', false],
      ['hooks.example.invalid is a special-use name that never resolves (RFC 6761)', false],
    ]);
    expect(lookups).toBe(0);
    expect(receiver!.deliveries).toHaveLength(0);
  });

  it('refuses every SSRF form at delivery too (stored under another policy), at once and without a lookup', async () => {
    let lookups = 0;
    const urls = REFUSED_URLS.map(([url]) => url).filter((url) => url.startsWith('http'));
    const failures = await deliver(urls, [], (_h, cb) => {
      lookups += 1;
      cb(null, [{ address: '127.0.0.1', family: 4 }]);
    });
    await settle(failures, urls.length);
    expect(failures.map((f) => f.url).sort()).toEqual([...urls].sort());
    for (const f of failures) expect([f.reason.startsWith('refused by the webhook URL policy'), f.willRetry], f.url).toEqual([true, false]);
    expect(lookups).toBe(0);
  });

  it('refuses an allow-listed name that resolves to a metadata address (rebinding), connecting nowhere', async () => {
    const failures = await deliver([`http://rebind.partner.com:9/x`], ['rebind.partner.com'], (_h, cb) => cb(null, [{ address: '169.254.169.254', family: 4 }]));
    await settle(failures, 1);
    expect(failures[0]).toMatchObject({ willRetry: false });
    expect(failures[0]!.reason).toMatch(/refused address: address 169\.254\.169\.254 is a metadata address/);
  });

  it('delivers to loopback and to a localhost name (connected to 127.0.0.1 without a lookup)', async () => {
    let lookups = 0;
    const failures = await deliver((port) => [`http://127.0.0.1:${port}/a`, `http://localhost:${port}/b`], [], () => (lookups += 1));
    await receiver!.waitFor((d) => d.path === '/a', 3000);
    await receiver!.waitFor((d) => d.path === '/b', 3000);
    expect(failures).toEqual([]);
    expect(receiver!.deliveries.map((d) => d.path).sort()).toEqual(['/a', '/b']);
    expect(lookups).toBe(0);
  });
});
