/**
 * The reference target over real HTTP: started on 127.0.0.1 port 0, driven with undici.
 * A small quota and a 1 s window keep the rate-limit round trip fast.
 */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAjv, schemaId } from '../../../src/schemas/registry.ts';
import { credentialBanner, startReferenceTarget, type StartedTarget } from '../../../src/target/index.ts';
import { pkcePair, TEXT_MESSAGE } from '../../helpers/reference-target.ts';

const ajv = createAjv();
const QUOTA = 5;

describe('reference target over HTTP', () => {
  let target: StartedTarget;
  let call: (method: 'GET' | 'POST', path: string, opts?: { token?: string; body?: unknown; headers?: Record<string, string> }) => Promise<{
    status: number;
    headers: Record<string, string | string[] | undefined>;
    json: unknown;
  }>;

  beforeAll(async () => {
    target = await startReferenceTarget({ rateLimit: { quota: QUOTA, windowSeconds: 1 } });
    call = async (method, path, opts = {}) => {
      const res = await request(`${target.baseUrl}${path}`, {
        method,
        headers: {
          ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
          ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...opts.headers,
        },
        body: opts.body === undefined ? undefined : typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body),
      });
      const text = await res.body.text();
      return { status: res.statusCode, headers: res.headers, json: text && res.headers['content-type']?.toString().includes('json') ? JSON.parse(text) : text };
    };
  });
  afterAll(async () => {
    await target.close();
  });

  it('listens on 127.0.0.1 with an ephemeral port and prints a usable banner', () => {
    expect(target.baseUrl).toBe(`http://127.0.0.1:${target.port}`);
    expect(target.port).toBeGreaterThan(0);
    expect(JSON.parse(credentialBanner(target.credentials, target.baseUrl).json)).toMatchObject({ baseUrl: target.baseUrl });
  });

  it('sends a message: 201 with the documented shape', async () => {
    const res = await call('POST', '/v1/whatsapp/messages', { token: target.credentials.apiKeys.full, body: TEXT_MESSAGE });
    expect(res.status).toBe(201);
    expect(ajv.getSchema(schemaId('send-message-response'))!(res.json)).toBe(true);
    expect(res.headers['x-request-id']).toBeTruthy();
  });

  it('401 with WWW-Authenticate without a credential; 403 for the restricted key', async () => {
    const none = await call('POST', '/v1/whatsapp/messages', { body: TEXT_MESSAGE });
    expect(none.status).toBe(401);
    expect(none.headers['www-authenticate']).toBe('Bearer realm="api"');
    const restricted = await call('POST', '/v1/whatsapp/messages', { token: target.credentials.apiKeys.restricted, body: TEXT_MESSAGE });
    expect(restricted.status).toBe(403);
    expect(restricted.headers['www-authenticate']).toBe('Bearer error="insufficient_scope", scope="messages:send"');
  });

  it('throttles a burst past the quota and honours its own Retry-After', async () => {
    const token = target.credentials.apiKeys.second;
    const statuses: number[] = [];
    let retryAfter = 0;
    // All at once. The windows are aligned to the clock's seconds, so a burst may straddle a boundary: quota + 3
    // requests once fell into two windows of at most a quota each on a busy machine, and none was a 429. Three
    // quotas and one more put more than a quota into one window as long as the target answers them within 2 s.
    const answers = await Promise.all(Array.from({ length: 3 * QUOTA + 1 }, () => call('GET', '/v1/whatsapp/messages?limit=1', { token })));
    for (const res of answers) {
      statuses.push(res.status);
      if (res.status === 429) retryAfter = Number(res.headers['retry-after']);
    }
    expect(statuses).toContain(429);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000));
    expect((await call('GET', '/v1/whatsapp/messages?limit=1', { token })).status).toBe(200);
  });

  it('pages through the list with pagination.next', async () => {
    const token = target.credentials.apiKeys.load;
    for (let i = 0; i < 5; i++) {
      const res = await call('POST', '/v1/sandbox/inbound', { token, body: { from: '15550001111', text: `p${i}`, timestamp: `2025-03-01T00:00:0${i}Z` } });
      expect(res.status).toBe(201);
    }
    const seen: string[] = [];
    let next: string | null = null;
    let pages = 0;
    do {
      const query: string = next ? `&cursor=${encodeURIComponent(next)}` : '';
      const res = await call('GET', `/v1/whatsapp/messages?from=15550001111&limit=2${query}`, { token });
      expect(res.status).toBe(200);
      expect(ajv.getSchema(schemaId('message-list'))!(res.json)).toBe(true);
      const body = res.json as { data: { text: string }[]; pagination: { next: string | null } };
      seen.push(...body.data.map((m) => m.text));
      next = body.pagination.next;
      pages += 1;
    } while (next);
    expect(pages).toBe(3);
    expect(seen).toEqual(['p4', 'p3', 'p2', 'p1', 'p0']);
  });

  it('logs in and reads the account with the JWT', async () => {
    const login = await call('POST', '/v1/auth/login', { body: target.credentials.login });
    expect(login.status).toBe(200);
    const { token } = login.json as { token: string };
    const account = await call('GET', '/v1/account', { token });
    expect(account.status).toBe(200);
    expect(ajv.getSchema(schemaId('account'))!(account.json)).toBe(true);
  });

  it('runs the OAuth code flow with PKCE; the token works within its scopes, and code reuse revokes it', async () => {
    const { oauth, login: user } = target.credentials;
    const jwt = ((await call('POST', '/v1/auth/login', { body: user })).json as { token: string }).token;
    const pkce = pkcePair();
    const params = {
      response_type: 'code',
      client_id: oauth.clientId,
      redirect_uri: oauth.redirectUri,
      scope: 'messages:read',
      state: 'st-1',
      code_challenge: pkce.challenge,
      code_challenge_method: 'S256',
    };
    const page = await call('GET', `/v1/oauth/authorize?${new URLSearchParams(params)}`);
    expect(page.status).toBe(200);
    expect(String(page.json)).toContain('<form');

    const consent = await request(`${target.baseUrl}/v1/oauth/authorize`, {
      method: 'POST',
      headers: { authorization: `Bearer ${jwt}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...params, decision: 'approve' }).toString(),
    });
    await consent.body.dump();
    expect(consent.statusCode).toBe(302);
    const location = new URL(String(consent.headers.location));
    expect(location.searchParams.get('state')).toBe('st-1');
    const code = location.searchParams.get('code')!;

    const exchange = {
      grant_type: 'authorization_code',
      code,
      client_id: oauth.clientId,
      client_secret: oauth.clientSecret,
      redirect_uri: oauth.redirectUri,
      code_verifier: pkce.verifier,
    };
    const issued = await call('POST', '/v1/oauth/token', { body: exchange });
    expect(issued.status).toBe(200);
    expect(issued.headers['cache-control']).toBe('no-store');
    const accessToken = (issued.json as { access_token: string }).access_token;

    expect((await call('GET', '/v1/whatsapp/messages', { token: accessToken })).status).toBe(200);
    expect((await call('POST', '/v1/whatsapp/messages', { token: accessToken, body: TEXT_MESSAGE })).status).toBe(403);

    const reuse = await call('POST', '/v1/oauth/token', { body: exchange });
    expect(reuse.status).toBe(400);
    expect(reuse.json).toMatchObject({ error: 'invalid_grant' });
    expect((await call('GET', '/v1/whatsapp/messages', { token: accessToken })).status).toBe(401);
  });
});

describe('startReferenceTarget lifecycle', () => {
  it('closes cleanly while status timers are pending, and refuses connections afterwards', async () => {
    const target = await startReferenceTarget({ statusDelaysMs: { delivered: 60_000, read: 120_000 } });
    const res = await request(`${target.baseUrl}/v1/whatsapp/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${target.credentials.apiKeys.full}`, 'content-type': 'application/json' },
      body: JSON.stringify(TEXT_MESSAGE),
    });
    await res.body.dump();
    expect(res.statusCode).toBe(201);
    await target.close();
    await expect(request(`${target.baseUrl}/v1/account`)).rejects.toThrow();
  });

  it('reports a port in use as a TargetStartError', async () => {
    const first = await startReferenceTarget();
    try {
      await expect(startReferenceTarget({ port: first.port })).rejects.toMatchObject({ code: 'HARNESS_ERR_TARGET_START' });
    } finally {
      await first.close();
    }
  });
});
