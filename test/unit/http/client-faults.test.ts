/**
 * Fault shapes a real server cannot produce on demand — a DNS failure, an error in the middle of a response —
 * and the polite client's 429 handling, through undici's MockAgent (the harness's client is undici, which nock
 * does not intercept).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MockAgent } from 'undici';
import { TargetUnreachableError } from '../../../src/errors/harness-errors.ts';
import { HttpClient, TransportError } from '../../../src/http/client.ts';
import { withExchangeLog } from '../../../src/http/exchange.ts';
import { assertReachable } from '../../../src/job/preflight.ts';

const ORIGIN = 'http://api.test:8080';
let agent: MockAgent;
let slept: number[];
let client: HttpClient;

beforeEach(() => {
  agent = new MockAgent();
  agent.disableNetConnect();
  slept = [];
  client = new HttpClient({ baseUrl: ORIGIN, dispatcher: agent, sleep: async (ms) => void slept.push(ms) });
});

afterEach(async () => {
  await agent.close();
});

describe('HttpClient transport faults', () => {
  it('reports a failure without any response as a TransportError, and records the exchange', async () => {
    const err = Object.assign(new Error('getaddrinfo ENOTFOUND api.test'), { code: 'ENOTFOUND' });
    agent.get(ORIGIN).intercept({ path: '/v1/whatsapp/messages', method: 'GET' }).replyWithError(err);
    const { result, exchanges } = await withExchangeLog(() => client.request({ path: '/v1/whatsapp/messages' }).catch((e: unknown) => e));
    expect(result).toBeInstanceOf(TransportError);
    expect((result as TransportError).code).toBe('ENOTFOUND');
    expect(exchanges).toHaveLength(1);
    expect(exchanges[0]!.error).toBe('ENOTFOUND: getaddrinfo ENOTFOUND api.test');
    expect(exchanges[0]!.response).toBeUndefined();
  });

  it('the preflight turns it into "target unreachable" (exit 3)', async () => {
    const err = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    agent.get(ORIGIN).intercept({ path: '/v1/whatsapp/messages', method: 'GET' }).replyWithError(err);
    const failure = await assertReachable(client, '/v1/whatsapp/messages').catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(TargetUnreachableError);
    expect((failure as TargetUnreachableError).exitCode).toBe(3);
    expect((failure as Error).message).toBe(`target ${ORIGIN} is unreachable: ECONNREFUSED: connect ECONNREFUSED`);
  });

  it('any HTTP answer, even a 500, counts as reachable', async () => {
    agent.get(ORIGIN).intercept({ path: '/v1/whatsapp/messages', method: 'GET' }).reply(500, 'boom');
    await expect(assertReachable(client, '/v1/whatsapp/messages')).resolves.toBeUndefined();
  });
});

describe('HttpClient 429 handling', () => {
  it('waits out Retry-After and asks again, keeping both exchanges', async () => {
    const pool = agent.get(ORIGIN);
    pool.intercept({ path: '/x', method: 'GET' }).reply(429, '{}', { headers: { 'retry-after': '2' } });
    pool.intercept({ path: '/x', method: 'GET' }).reply(200, '{"ok":true}', { headers: { 'content-type': 'application/json' } });
    const { result, exchanges } = await withExchangeLog(() => client.request({ path: '/x' }));
    expect(result.status).toBe(200);
    expect(result.json()).toEqual({ ok: true });
    expect(slept).toEqual([2050]);
    expect(exchanges.map((e) => e.response?.status)).toEqual([429, 200]);
  });

  it('hands the 429 back when a check opts out, or when Retry-After is longer than it may wait', async () => {
    const pool = agent.get(ORIGIN);
    pool.intercept({ path: '/x', method: 'GET' }).reply(429, '', { headers: { 'retry-after': '1' } });
    expect((await client.request({ path: '/x', retryOn429: false })).status).toBe(429);
    pool.intercept({ path: '/x', method: 'GET' }).reply(429, '', { headers: { 'retry-after': '3600' } });
    expect((await client.request({ path: '/x' })).status).toBe(429);
    expect(slept).toEqual([]);
  });
});
