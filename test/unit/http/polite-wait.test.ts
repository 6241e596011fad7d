/**
 * The polite client's waiting against a real server on 127.0.0.1 whose Retry-After lies (always 1 s while the
 * window is longer): it falls back to the headers' reset or a bounded back-off, records the lie once, and ends
 * with RateLimitedError — never a 429 handed to a check — when the quota does not come back in time. The sleep
 * is virtual (the server's clock is the test's), so no test waits for real.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpClient } from '../../../src/http/client.ts';
import { PoliteState, RateLimitedError, runMetered, type WaitMeter } from '../../../src/http/polite-wait.ts';

let server: Server | undefined;
let client: HttpClient | undefined;
afterEach(async () => {
  await client?.close();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = client = undefined;
});

/** Throttled until `openAt` (virtual ms); every 429 says Retry-After: 1; `reset` adds X-RateLimit-Reset. */
async function lyingTarget(clock: { now: number }, openAt: number, reset: boolean): Promise<string> {
  server = createServer((_req, res) => {
    if (clock.now < openAt) {
      const headers: Record<string, string> = { 'retry-after': '1', 'content-type': 'application/json' };
      if (reset) headers['x-ratelimit-reset'] = String(Math.ceil((openAt - clock.now) / 1000));
      res.writeHead(429, headers).end('{"title":"Too Many Requests"}');
    } else res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[]}');
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', () => resolve()));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
}

function clientFor(baseUrl: string, clock: { now: number }, polite: PoliteState): HttpClient {
  client = new HttpClient({ baseUrl, polite, sleep: async (ms) => void (clock.now += ms) });
  return client;
}

const readReset = (headers: Record<string, string>) => (headers['x-ratelimit-reset'] ? { resetS: Number(headers['x-ratelimit-reset']) } : {});

describe('polite waiting', () => {
  it('a lying Retry-After is recorded once and the reset header is waited for instead', async () => {
    const clock = { now: 0 };
    const polite = new PoliteState({ throwWhenLimited: true, readLimit: readReset });
    const http = clientFor(await lyingTarget(clock, 9000, true), clock, polite);
    const meter: WaitMeter = { waitedMs: 0, throttled: 0 };
    const res = await runMetered(meter, () => http.request({ path: '/v1/things' }));
    expect(res.status).toBe(200);
    expect(polite.lies).toHaveLength(1);
    expect(polite.lies[0]).toMatchObject({ method: 'GET', claimedS: 1 });
    expect(polite.distrustRetryAfter).toBe(true);
    expect(meter.throttled).toBe(2);
    expect(meter.waitedMs).toBeGreaterThanOrEqual(9000);
  });

  it('without a reset header it backs off exponentially, bounded', async () => {
    const clock = { now: 0 };
    const polite = new PoliteState({ throwWhenLimited: true });
    const http = clientFor(await lyingTarget(clock, 9000, false), clock, polite);
    const res = await http.request({ path: '/v1/things' });
    expect(res.status).toBe(200);
    expect(polite.lies).toHaveLength(1);
    expect(clock.now).toBeLessThan(30_000);
  });

  it('a quota that never comes back ends in RateLimitedError (conformance) or the 429 (other traffic)', async () => {
    const clock = { now: 0 };
    const polite = new PoliteState({ throwWhenLimited: true });
    const http = clientFor(await lyingTarget(clock, Number.POSITIVE_INFINITY, false), clock, polite);
    await expect(http.request({ path: '/v1/things' })).rejects.toBeInstanceOf(RateLimitedError);
    await expect(http.request({ path: '/v1/things' })).rejects.toThrow(/got no answer but 429/);
    expect(polite.lies).toHaveLength(1);
    await client!.close();
    client = new HttpClient({ baseUrl: http.baseUrl, sleep: async (ms) => void (clock.now += ms) });
    expect((await client.request({ path: '/v1/things' })).status).toBe(429);
  });

  it('a 429 after a retry is no lie when another request was admitted in between', async () => {
    const polite = new PoliteState();
    let calls = 0;
    const clock = { now: 0 };
    server = createServer((req, res) => {
      if (req.url === '/other') return void res.writeHead(200).end('{}');
      calls += 1;
      res.writeHead(calls < 3 ? 429 : 200, { 'retry-after': '1' }).end('{}');
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', () => resolve()));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // The sleep lets another request through: it may have used the quota, so the second 429 proves nothing.
    client = new HttpClient({ baseUrl: base, polite, sleep: async (ms) => { clock.now += ms; await other.request({ path: '/other' }); } });
    const other = new HttpClient({ baseUrl: base, polite });
    try {
      expect((await client.request({ path: '/x' })).status).toBe(200);
      expect(polite.lies).toEqual([]);
    } finally {
      await other.close();
    }
  });
});
