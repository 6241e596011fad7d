/**
 * A header value HTTP does not allow (a token the target issued with invalid UTF-8 or a control character) is not
 * sent and not a transport failure: the client throws UnsendableRequestError naming the header, records no
 * exchange (so no "target lost" streak grows), and the server sees nothing. Real server on port 0.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient, UnsendableRequestError } from '../../../src/http/client.ts';
import { withExchangeLog } from '../../../src/http/exchange.ts';

let server: Server;
let baseUrl: string;
let seen = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    seen++;
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('a credential that cannot go into a header', () => {
  it.each([
    ['invalid UTF-8 (decoded as U+FFFD)', 'tok_\ufffd\ufffdabc', /invalid UTF-8/],
    ['a control character', 'tok_\u0001abc', /control character/],
    ['a newline (header injection)', 'tok\r\nx-injected: 1', /control character/],
  ])('%s: UnsendableRequestError naming the header, nothing sent, no exchange recorded', async (_name, bearer, why) => {
    const http = new HttpClient({ baseUrl });
    const before = seen;
    const { result, exchanges } = await withExchangeLog(() => http.request({ path: '/v1/account', bearer }).then(() => 'sent', (err: unknown) => err));
    expect(result).toBeInstanceOf(UnsendableRequestError);
    expect((result as UnsendableRequestError).header).toBe('authorization');
    expect((result as Error).message).toMatch(why);
    expect(exchanges).toEqual([]);
    expect(seen).toBe(before);
    await http.close();
  });

  it('an ordinary token is sent', async () => {
    const http = new HttpClient({ baseUrl });
    expect((await http.request({ path: '/v1/account', bearer: 'eyJhbGciOiJIUzI1NiJ9.e30.c2ln' })).status).toBe(200);
    await http.close();
  });
});
