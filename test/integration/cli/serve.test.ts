/**
 * The "must show" of `harness serve`, through the real command: it prints its port and credentials, and the
 * API it serves behaves as PROFILE.md says for the main paths (send, 401, 403, 429 + Retry-After, list paging,
 * login → account, OAuth authorize + consent + token).
 */
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { startServe, stop } from '../../helpers/cli.ts';

let child: Awaited<ReturnType<typeof startServe>>['child'];
let banner: Record<string, any>;
let output: () => string;
let base: string;

beforeAll(async () => {
  ({ child, banner, output } = await startServe(['--quota', '5', '--window', '2']));
  base = banner.baseUrl as string;
});

afterAll(async () => {
  expect(await stop(child)).toBe(0);
});

async function call(method: string, path: string, options: { bearer?: string; json?: unknown; form?: Record<string, string> } = {}) {
  const headers: Record<string, string> = {};
  let body: string | undefined;
  if (options.bearer) headers.authorization = `Bearer ${options.bearer}`;
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.json);
  }
  if (options.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(options.form).toString();
  }
  const res = await request(`${base}${path}`, { method: method as 'GET', headers, body });
  const text = await res.body.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, headers: res.headers as Record<string, string>, json, text };
}

describe('harness serve', () => {
  it('prints its address and credentials: one JSON line, then a readable table', () => {
    expect(banner.event).toBe('reference-target.listening');
    expect(banner.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const creds = banner.credentials;
    for (const key of ['full', 'restricted', 'second', 'load']) expect(typeof creds.apiKeys[key]).toBe('string');
    const table = output().split('\n').slice(1).join('\n');
    expect(table).toContain(creds.apiKeys.full);
    expect(table).toContain(creds.login.email);
  });

  it('send with the full key: 201 with id, status sent and an ISO 8601 timestamp', async () => {
    const res = await call('POST', '/v1/whatsapp/messages', { bearer: banner.credentials.apiKeys.full, json: { to: '15551234567', type: 'text', text: { body: 'hi' } } });
    expect(res.status).toBe(201);
    expect(typeof res.json.id).toBe('string');
    expect(res.json.status).toBe('sent');
    expect(res.json.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
  });

  it('no credential: 401 with WWW-Authenticate; the restricted key: 403', async () => {
    const none = await call('POST', '/v1/whatsapp/messages', { json: { to: '15551234567', text: 'x' } });
    expect(none.status).toBe(401);
    expect(none.headers['www-authenticate']).toMatch(/^Bearer realm="api"/);
    const restricted = await call('POST', '/v1/whatsapp/messages', { bearer: banner.credentials.apiKeys.restricted, json: { to: '15551234567', text: 'x' } });
    expect(restricted.status).toBe(403);
  });

  it('a burst past the quota: 429 with Retry-After, and a request after that many seconds succeeds', async () => {
    const key = banner.credentials.apiKeys.second;
    let throttled: Awaited<ReturnType<typeof call>> | undefined;
    // Quota 5 per 2 s, by default in fixed windows aligned to the epoch: a burst that straddles a boundary can send
    // 5 in each window unthrottled (one run in CI did), so it may take 2 × 5 + 1 requests to be sure of a 429.
    for (let i = 0; i < 11 && !throttled; i++) {
      const res = await call('GET', '/v1/whatsapp/messages', { bearer: key });
      if (res.status === 429) throttled = res;
    }
    expect(throttled?.status).toBe(429);
    const retryAfter = Number(throttled!.headers['retry-after']);
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000));
    expect((await call('GET', '/v1/whatsapp/messages', { bearer: key })).status).toBe(200);
  });

  it('the list pages with pagination.next', async () => {
    const key = banner.credentials.apiKeys.load;
    for (let i = 0; i < 3; i++) {
      expect((await call('POST', '/v1/sandbox/inbound', { bearer: key, json: { from: '15557654321', text: `m${i}` } })).status).toBe(201);
    }
    const first = await call('GET', '/v1/whatsapp/messages?limit=2', { bearer: key });
    expect(first.status).toBe(200);
    expect(first.json.data).toHaveLength(2);
    expect(first.json.pagination.limit).toBe(2);
    expect(typeof first.json.pagination.next).toBe('string');
    const second = await call('GET', `/v1/whatsapp/messages?limit=2&cursor=${encodeURIComponent(first.json.pagination.next)}`, { bearer: key });
    expect(second.status).toBe(200);
    expect(second.json.data.length).toBeGreaterThanOrEqual(1);
    expect(second.json.data[0].id).not.toBe(first.json.data[1].id);
  });

  it('login → JWT → GET /v1/account 200', async () => {
    const login = await call('POST', '/v1/auth/login', { json: banner.credentials.login });
    expect(login.status).toBe(200);
    expect(Number.isInteger(login.json.expires_in)).toBe(true);
    const account = await call('GET', '/v1/account', { bearer: login.json.token });
    expect(account.status).toBe(200);
    expect(account.json.email).toBe(banner.credentials.login.email);
  });

  it('OAuth authorize + consent + token: the access token works on messaging within its scopes', async () => {
    const { clientId, clientSecret, redirectUri } = banner.credentials.oauth;
    const jwt = (await call('POST', '/v1/auth/login', { json: banner.credentials.login })).json.token as string;
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const params = { response_type: 'code', client_id: clientId, redirect_uri: redirectUri, scope: 'messages:read', state: 'st-1', code_challenge: challenge, code_challenge_method: 'S256' };
    const page = await call('GET', `/v1/oauth/authorize?${new URLSearchParams(params)}`);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    const consent = await call('POST', '/v1/oauth/authorize', { bearer: jwt, form: { ...params, decision: 'approve' } });
    expect(consent.status).toBe(302);
    const location = new URL(consent.headers.location!);
    expect(location.searchParams.get('state')).toBe('st-1');
    const code = location.searchParams.get('code')!;
    const token = await call('POST', '/v1/oauth/token', {
      json: { grant_type: 'authorization_code', code, client_id: clientId, client_secret: clientSecret, redirect_uri: redirectUri, code_verifier: verifier },
    });
    expect(token.status).toBe(200);
    expect(token.headers['cache-control']).toBe('no-store');
    expect(token.json.token_type).toBe('Bearer');
    const list = await call('GET', '/v1/whatsapp/messages', { bearer: token.json.access_token });
    expect(list.status).toBe(200);
    const send = await call('POST', '/v1/whatsapp/messages', { bearer: token.json.access_token, json: { to: '15551234567', text: 'x' } });
    expect(send.status).toBe(403);
  });
});
