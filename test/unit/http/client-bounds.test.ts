/**
 * The client against hostile servers: a 10 MB body is read up to the cap and the rest counted; a body dripping
 * one byte every 100 ms ends at the total deadline (undici's body timeout is an idle timeout and never fires);
 * close() never waits for a stuck request.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { KEEP_BODY_BYTES } from '../../../src/http/body-reader.ts';
import { HttpClient, TransportError } from '../../../src/http/client.ts';
import { EVIDENCE_BODY_LIMIT, LOG_BODY_BUDGET, withExchangeLog } from '../../../src/http/exchange.ts';
import { startHostile, type HostileTarget } from '../../targets/hostile/servers.ts';

let target: HostileTarget | undefined;
let client: HttpClient | undefined;
afterEach(async () => {
  await client?.close();
  await target?.close();
  client = undefined;
  target = undefined;
});

describe('HttpClient bounds', () => {
  it('keeps the first MiB of a 10 MB body as text, counts the rest, and marks the exchange', async () => {
    target = await startHostile('big-body');
    client = new HttpClient({ baseUrl: target.baseUrl });
    const res = await client.request({ path: '/v1/x' });
    expect(res.status).toBe(200);
    expect(res.text.length).toBe(KEEP_BODY_BYTES);
    expect(res.exchange.response?.truncatedFrom).toBe(10 * 1024 * 1024);
    expect(res.json()).toBeUndefined();
    // The connection is still usable: the rest was read and discarded, not left in the socket.
    expect((await client.request({ path: '/v1/x' })).status).toBe(200);
  });

  it("a check's log holds a bounded amount of body: older bodies are cut to evidence size and marked", async () => {
    target = await startHostile('big-body');
    client = new HttpClient({ baseUrl: target.baseUrl });
    const { exchanges } = await withExchangeLog(async () => {
      for (let i = 0; i < 20; i++) await client!.request({ path: '/v1/x' });
    });
    const held = exchanges.reduce((n, e) => n + (e.response?.body.length ?? 0), 0);
    expect(held).toBeLessThanOrEqual(LOG_BODY_BUDGET);
    expect(exchanges[0]!.response!.body.length).toBe(EVIDENCE_BODY_LIMIT);
    expect(exchanges.every((e) => e.response!.truncatedFrom === 10 * 1024 * 1024)).toBe(true);
    expect(exchanges.at(-1)!.response!.body.length).toBe(KEEP_BODY_BYTES);
  });

  it('ends a dripping body at the total deadline with a TransportError that says so', async () => {
    target = await startHostile('drip');
    client = new HttpClient({ baseUrl: target.baseUrl, timeoutMs: 300 });
    const err = await client.request({ path: '/v1/x' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TransportError);
    expect((err as TransportError).code).toBe('REQUEST_DEADLINE');
    expect((err as TransportError).exchange.error).toBe('REQUEST_DEADLINE: no complete response within 300 ms (target.timeoutMs)');
  });

  it('an aborted signal stops the request', async () => {
    target = await startHostile('never-answers');
    client = new HttpClient({ baseUrl: target.baseUrl });
    const controller = new AbortController();
    const pending = client.request({ path: '/v1/x', signal: controller.signal }).catch((e: unknown) => e);
    setTimeout(() => controller.abort(), 20);
    const err = await pending;
    expect((err as TransportError).code).toBe('ABORTED');
  });

  it('close() does not wait for a request the target never answers', async () => {
    target = await startHostile('never-answers');
    client = new HttpClient({ baseUrl: target.baseUrl, timeoutMs: 600_000 });
    const pending = client.request({ path: '/v1/x' }).catch((e: unknown) => e);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await client.close();
    // The stuck request was cut by close(), not left running for ten minutes.
    expect(await pending).toBeInstanceOf(TransportError);
    client = undefined;
  });
});
