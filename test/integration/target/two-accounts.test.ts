/**
 * The reference target serves two accounts (PROFILE.md "Accounts, ownership and exposure"), on a real server on
 * port 0: each credential acts for its account, and every store — received messages and their cursors, campaigns,
 * webhooks and their deliveries, idempotency keys — answers an account nothing of the other's. `harness serve`'s
 * banner prints and exports the second account beside the first.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { credentialBanner, startReferenceTarget } from '../../../src/target/index.ts';
import type { StartedReferenceTarget } from '../../../src/target/types.ts';
import { WebhookReceiver } from '../../../src/webhooks/receiver.ts';
import { authorizeCode, TEXT_MESSAGE, tokenRequest } from '../../helpers/reference-target.ts';

let target: StartedReferenceTarget;
let keyA: string;
let keyB: string;

async function call(key: string | undefined, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await request(`${target.baseUrl}${path}`, {
    method: method as 'GET',
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, text, json: (text ? JSON.parse(text) : undefined) as any };
}

beforeAll(async () => {
  target = await startReferenceTarget({ host: '127.0.0.1', port: 0 });
  keyA = target.credentials.apiKeys.full;
  keyB = target.credentials.otherAccount.apiKey;
});
afterAll(() => target.close());

describe('the reference target: two accounts', () => {
  it("each account's login user reads its own account with its JWT", async () => {
    const accounts = [];
    for (const login of [target.credentials.login, target.credentials.otherAccount.login]) {
      const token = (await call(undefined, 'POST', '/v1/auth/login', login)).json.token as string;
      const account = await call(token, 'GET', '/v1/account');
      expect(account.status).toBe(200);
      expect(account.json.email).toBe(login.email);
      accounts.push(account.json.id);
    }
    expect(new Set(accounts).size).toBe(2);
  });

  it("an OAuth access token acts for the account of the user who approved it", async () => {
    const asB = { ...target.credentials, login: target.credentials.otherAccount.login };
    const code = await authorizeCode(target.app, asB, { scope: 'messages:read' });
    const token = (await call(undefined, 'POST', '/v1/oauth/token', tokenRequest(target.credentials, code))).json.access_token as string;
    expect((await call(token, 'GET', '/v1/account')).json.email).toBe(target.credentials.otherAccount.login.email);
    const own = await call(keyB, 'POST', '/v1/sandbox/inbound', { from: '15550003333', text: 'b via oauth' });
    await call(keyA, 'POST', '/v1/sandbox/inbound', { from: '15550003333', text: 'a, not for b' });
    const listed = await call(token, 'GET', '/v1/whatsapp/messages?from=15550003333');
    expect(listed.json.data.map((m: { id: string }) => m.id)).toEqual([own.json.id]);
  });

  it("another account's campaign is answered exactly like an unknown id", async () => {
    const created = await call(keyA, 'POST', '/v1/email/campaigns', { name: 'n', subject: 's', content: '<p>c</p>', recipients: ['a@example.com'] });
    expect(created.status).toBe(201);
    expect((await call(keyA, 'GET', `/v1/email/campaigns/${created.json.id}`)).status).toBe(200);
    const foreign = await call(keyB, 'GET', `/v1/email/campaigns/${created.json.id}`);
    const unknown = await call(keyB, 'GET', '/v1/email/campaigns/cmp_does_not_exist');
    expect([foreign.status, foreign.json.code, foreign.json.detail]).toEqual([unknown.status, unknown.json.code, unknown.json.detail]);
    expect(foreign.status).toBe(404);
  });

  it("received messages, filters and cursors stay within their account", async () => {
    const from = '15550001111';
    const idsOfA: string[] = [];
    for (let i = 0; i < 3; i++) idsOfA.push((await call(keyA, 'POST', '/v1/sandbox/inbound', { from, text: `a${i}` })).json.id);
    const ofB = await call(keyB, 'POST', '/v1/sandbox/inbound', { from, text: 'b' });
    expect(ofB.status).toBe(201);

    const listA = await call(keyA, 'GET', `/v1/whatsapp/messages?from=${from}`);
    expect(listA.json.data.map((m: { text: string }) => m.text)).toEqual(['a2', 'a1', 'a0']);
    for (const query of ['', `?from=${from}`, '?since=2000-01-01T00:00:00Z&until=2100-01-01T00:00:00Z']) {
      const ids = (await call(keyB, 'GET', `/v1/whatsapp/messages${query}`)).json.data.map((m: { id: string }) => m.id) as string[];
      expect(ids, query).toContain(ofB.json.id);
      expect(ids.filter((id) => idsOfA.includes(id)), query).toEqual([]);
    }

    const pageA = await call(keyA, 'GET', `/v1/whatsapp/messages?limit=1&from=${from}`);
    const cursor = pageA.json.pagination.next as string;
    expect((await call(keyA, 'GET', `/v1/whatsapp/messages?limit=1&from=${from}&cursor=${encodeURIComponent(cursor)}`)).json.data[0].text).toBe('a1');
    const replayed = await call(keyB, 'GET', `/v1/whatsapp/messages?limit=1&from=${from}&cursor=${encodeURIComponent(cursor)}`);
    expect([replayed.status, replayed.json.code]).toEqual([400, 'invalid_cursor']);
  });

  it("webhooks: listed without their secret, only to their account; another account's delete leaves them registered", async () => {
    const created = await call(keyA, 'POST', '/v1/webhooks', { url: 'http://127.0.0.1:9/a', events: ['message.status'] });
    expect(created.status).toBe(201);
    expect(created.json.secret).toMatch(/^whsec_/);
    const listA = await call(keyA, 'GET', '/v1/webhooks');
    expect(listA.json.data.map((h: { id: string }) => h.id)).toContain(created.json.id);
    expect(listA.text).not.toContain(created.json.secret);
    for (const item of listA.json.data) expect(item).not.toHaveProperty('secret');
    expect((await call(keyB, 'GET', '/v1/webhooks')).json.data).toEqual([]);
    expect((await call(keyB, 'DELETE', `/v1/webhooks/${created.json.id}`)).status).toBe(404);
    expect((await call(keyA, 'GET', '/v1/webhooks')).json.data.map((h: { id: string }) => h.id)).toContain(created.json.id);
    expect((await call(keyA, 'DELETE', `/v1/webhooks/${created.json.id}`)).status).toBe(204);
  });

  it("an event is delivered only to its own account's webhooks", async () => {
    const receiver = await WebhookReceiver.start();
    try {
      const hook = await call(keyA, 'POST', '/v1/webhooks', { url: receiver.url, events: ['message.received'] });
      expect(hook.status).toBe(201);
      // B's event first: had it been delivered to A's webhook, it would have been sent before A's.
      const ofB = await call(keyB, 'POST', '/v1/sandbox/inbound', { from: '15550002222', text: 'for b only' });
      const ofA = await call(keyA, 'POST', '/v1/sandbox/inbound', { from: '15550002222', text: 'for a' });
      expect(await receiver.waitFor((d) => d.rawBody.includes(ofA.json.id), 5000)).toBeDefined();
      expect(receiver.deliveries.map((d) => JSON.parse(d.rawBody).data.id)).toEqual([ofA.json.id]);
      expect(receiver.deliveries.some((d) => d.rawBody.includes(ofB.json.id))).toBe(false);
      await call(keyA, 'DELETE', `/v1/webhooks/${hook.json.id}`);
    } finally {
      await receiver.close();
    }
  });

  it("another account replaying an Idempotency-Key gets its own fresh result", async () => {
    const headers = { 'idempotency-key': 'shared-key-across-accounts' };
    const first = await call(keyA, 'POST', '/v1/whatsapp/messages', TEXT_MESSAGE, headers);
    const again = await call(keyA, 'POST', '/v1/whatsapp/messages', TEXT_MESSAGE, headers);
    expect([first.status, again.json.id, again.headers['idempotent-replayed']]).toEqual([201, first.json.id, 'true']);
    const other = await call(keyB, 'POST', '/v1/whatsapp/messages', TEXT_MESSAGE, headers);
    expect(other.status).toBe(201);
    expect(other.json.id).not.toBe(first.json.id);
    expect(other.headers['idempotent-replayed']).toBeUndefined();
  });

  it('reference.credentials.otherAccount fixes the second account (otherwise random per start)', async () => {
    const fixed = { apiKey: 'sk_fixed_other_account_key', login: { email: 'fixed-other@example.com', password: 'fixed-other-password' } };
    const other = await startReferenceTarget({ host: '127.0.0.1', port: 0, credentials: { otherAccount: fixed } });
    try {
      expect(other.credentials.otherAccount).toEqual(fixed);
      const token = (await request(`${other.baseUrl}/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(fixed.login) }).then((r) => r.body.json())) as { token: string };
      expect(typeof token.token).toBe('string');
    } finally {
      await other.close();
    }
  });

  it('the banner prints and exports the second account beside the first', () => {
    const banner = credentialBanner(target.credentials, target.baseUrl);
    const other = target.credentials.otherAccount;
    expect(banner.env).toContain(`export HARNESS_OTHER_API_KEY='${other.apiKey}'`);
    expect(banner.env).toContain(`export HARNESS_OTHER_LOGIN_EMAIL='${other.login.email}'`);
    expect(banner.env).toContain(`export HARNESS_OTHER_LOGIN_PASSWORD='${other.login.password}'`);
    expect(banner.table).toMatch(new RegExp(`other account key\\s+${other.apiKey}`));
    expect(JSON.parse(banner.json).credentials.otherAccount).toEqual(other);
    expect(other.apiKey).not.toBe(target.credentials.apiKeys.full);
  });
});
