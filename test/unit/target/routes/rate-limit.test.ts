import { afterEach, describe, expect, it } from 'vitest';
import type { RateLimitAlgorithm } from '../../../../src/config/types.ts';
import { buildApp, type BuiltApp } from '../../../../src/target/index.ts';
import { bearer, fakeClock, TEXT_MESSAGE } from '../../../helpers/reference-target.ts';

describe('rate limiting', () => {
  let target: BuiltApp | undefined;
  afterEach(async () => {
    await target?.app.close();
  });

  const start = async (algorithm: RateLimitAlgorithm = 'fixed-window') => {
    const clock = fakeClock();
    target = await buildApp({ now: clock.now, rateLimit: { algorithm, quota: 3, windowSeconds: 2, anonymousQuota: 2 }, loadQuota: 50 });
    const get = (headers: Record<string, string>, url = '/v1/whatsapp/messages') => target!.app.inject({ method: 'GET', url, headers });
    return { clock, get, creds: target.credentials };
  };

  it('announces policy and remaining on every authenticated answer', async () => {
    const { get, creds } = await start();
    const res = await get(bearer(creds.apiKeys.full));
    expect(res.headers['ratelimit-policy']).toBe('"default";q=3;w=2');
    expect(res.headers.ratelimit).toBe('"default";r=2;t=2');
    const refused = await target!.app.inject({ method: 'POST', url: '/v1/whatsapp/messages', headers: bearer(creds.apiKeys.restricted), payload: TEXT_MESSAGE });
    expect(refused.statusCode).toBe(403);
    expect(refused.headers.ratelimit).toBe('"default";r=2;t=2');
  });

  it.each(['fixed-window', 'sliding-window', 'token-bucket'] as const)(
    '%s: 429 rate_limited with an honest Retry-After, refusals do not consume',
    async (algorithm) => {
      const { clock, get, creds } = await start(algorithm);
      const auth = bearer(creds.apiKeys.full);
      for (let i = 0; i < 3; i++) expect((await get(auth)).statusCode).toBe(200);
      clock.advance(500);
      const refused = await get(auth);
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(refused.json()).toMatchObject({ status: 429, code: 'rate_limited' });
      expect(refused.headers['x-request-id']).toBeTruthy();
      expect(refused.headers.ratelimit).toMatch(/^"default";r=0;t=\d+$/);
      const retryAfter = Number(refused.headers['retry-after']);
      expect(Number.isInteger(retryAfter) && retryAfter >= 1).toBe(true);
      for (let i = 0; i < 5; i++) expect((await get(auth)).statusCode).toBe(429);
      clock.advance(retryAfter * 1000);
      expect((await get(auth)).statusCode).toBe(200);
    },
  );

  it('gives each credential its own bucket, and the load key its own quota', async () => {
    const { get, creds } = await start();
    for (let i = 0; i < 4; i++) await get(bearer(creds.apiKeys.full));
    expect((await get(bearer(creds.apiKeys.full))).statusCode).toBe(429);
    expect((await get(bearer(creds.apiKeys.second))).statusCode).toBe(200);
    const load = await get(bearer(creds.apiKeys.load));
    expect(load.headers['ratelimit-policy']).toBe('"default";q=50;w=2');
  });

  it('limits unauthenticated requests per address, bad credentials included, without touching key buckets', async () => {
    const { get, creds } = await start();
    expect((await get({})).statusCode).toBe(401);
    expect((await get(bearer('sk_wrong'))).statusCode).toBe(401);
    const third = await get({});
    expect(third.statusCode).toBe(429);
    expect(third.headers['ratelimit-policy']).toBe('"default";q=2;w=2');
    expect((await get(bearer(creds.apiKeys.full))).statusCode).toBe(200);
  });

  it('counts login as unauthenticated even with a key attached', async () => {
    const { creds } = await start();
    const login = () => target!.app.inject({ method: 'POST', url: '/v1/auth/login', headers: bearer(creds.apiKeys.full), payload: creds.login });
    expect((await login()).statusCode).toBe(200);
    expect((await login()).statusCode).toBe(200);
    expect((await login()).statusCode).toBe(429);
  });
});
