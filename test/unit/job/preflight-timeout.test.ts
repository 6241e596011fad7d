/**
 * A preflight that times out says "no complete answer within N ms" whichever of the timers bounding it fired
 * first — its own deadline, the request's total deadline, or undici's idle timeouts — and names that timer in
 * brackets. Which one fires first is the machine's scheduling; the timers undici and the request deadline raise
 * are injected (a real server cannot choose which fires), the silent listener is real.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { MockAgent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { TargetUnreachableError } from '../../../src/errors/harness-errors.ts';
import { HttpClient } from '../../../src/http/client.ts';
import { assertReachable } from '../../../src/job/preflight.ts';

const ORIGIN = 'http://api.test:8080';
const PATH = '/v1/whatsapp/messages';
const closers: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

function mockedClient(): { agent: MockAgent; client: HttpClient } {
  const agent = new MockAgent();
  agent.disableNetConnect();
  closers.push(() => agent.close());
  return { agent, client: new HttpClient({ baseUrl: ORIGIN, dispatcher: agent, timeoutMs: 600 }) };
}

async function failureOf(client: HttpClient, deadlineMs: number): Promise<TargetUnreachableError> {
  const failure = await assertReachable(client, PATH, { deadlineMs }).catch((e: unknown) => e);
  expect(failure).toBeInstanceOf(TargetUnreachableError);
  return failure as TargetUnreachableError;
}

describe('preflight timeouts', () => {
  for (const code of ['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'REQUEST_DEADLINE']) {
    it(`${code} reads as no complete answer within the bound, and names the timer`, async () => {
      const { agent, client } = mockedClient();
      agent.get(ORIGIN).intercept({ path: PATH, method: 'GET' }).replyWithError(Object.assign(new Error('timed out'), { code }));
      const failure = await failureOf(client, 600);
      expect(failure.exitCode).toBe(3);
      expect(failure.message).toBe(`target ${ORIGIN} is unreachable: no complete answer within 600 ms (target.timeoutMs; ${code})`);
    });
  }

  it('a listener that never answers: the same words, whichever timer fired first', async () => {
    const sockets = new Set<Socket>();
    const server: Server = createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => {});
      socket.resume();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    }));
    const { port } = server.address() as { port: number };
    const client = new HttpClient({ baseUrl: `http://127.0.0.1:${port}`, timeoutMs: 300 });
    closers.push(() => client.close());
    const failure = await failureOf(client, 300);
    expect(failure.message).toMatch(/is unreachable: no complete answer within 300 ms \(target\.timeoutMs; (preflight deadline|REQUEST_DEADLINE|UND_ERR_HEADERS_TIMEOUT)\)$/);
  });

  it('a refused connection keeps its own code and words', async () => {
    const { agent, client } = mockedClient();
    agent.get(ORIGIN).intercept({ path: PATH, method: 'GET' }).replyWithError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
    const failure = await failureOf(client, 600);
    expect(failure.message).toBe(`target ${ORIGIN} is unreachable: ECONNREFUSED: connect ECONNREFUSED`);
  });
});
