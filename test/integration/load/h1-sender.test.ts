/**
 * The open model's HTTP/1.1 sender (src/load/engine/h1/) against real servers on 127.0.0.1, port 0: node:http for
 * the ordinary shapes, raw `net` servers for what node:http will not send (interim responses written by hand, a
 * close or a reset mid-answer, a drip, silence). Nothing here asserts a duration: waits are for states (a server
 * has seen N requests, the sender has closed its socket), bounded by vitest's timeout. Every `done` is wrapped and
 * counted; after each test (servers and senders closed, their sockets' last events run) each was called once.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { encodeRequest } from '../../../src/load/engine/h1/request-bytes.ts';
import { H1Sender, type H1SenderOptions, type SendOutcome } from '../../../src/load/engine/h1/sender.ts';

const ABORTED = 'HARNESS_ABORTED';
/** A deadline for requests that are answered: far beyond any answer's time, never reached in a passing test. */
const LONG = 60_000;

const cleanups: Array<() => Promise<void> | void> = [];
const calls: Array<{ label: string; count: number }> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  // Let the sockets' last events (end, error, close) run: none may call a done a second time.
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
  await new Promise((resolve) => setTimeout(resolve, 20));
  const wrong = calls.splice(0).filter((c) => c.count !== 1);
  expect(wrong).toEqual([]);
});

function sender(origin: string, options: Partial<H1SenderOptions> = {}): H1Sender {
  const s = new H1Sender({ origin, connections: 1, ...options });
  cleanups.push(() => s.close());
  return s;
}

/** Sends one request; the promise settles with its first outcome (the count of calls is checked after the test). */
function send(s: H1Sender, bytes: Buffer | string, options: { head?: boolean; timeoutMs?: number } = {}): Promise<SendOutcome> {
  return new Promise((resolve) => {
    const record = { label: bytes.toString().split('\r\n')[0]!, count: 0 };
    calls.push(record);
    s.send(bytes, options.head ?? false, options.timeoutMs ?? LONG, (outcome) => {
      record.count++;
      resolve(outcome);
    });
  });
}

const get = (s: H1Sender, path = '/', options: { timeoutMs?: number } = {}) => send(s, encodeRequest('GET', path, s.host, {}, undefined), options);

/** Waits (a turn of the event loop at a time) until `condition` holds; vitest's timeout bounds it. */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 2));
}

function listen(server: net.Server): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
  });
}

interface HttpTarget {
  origin: string;
  server: Server;
  /** TCP connections accepted. */
  connections: number;
  /** Requests seen, in order of arrival. */
  requests: Array<{ method: string; url: string; headers: IncomingMessage['headers']; body: Buffer; connection: number }>;
}

/** A node:http server whose handler runs after the request body has been read. */
async function httpTarget(handler: (req: IncomingMessage, res: ServerResponse, body: Buffer) => unknown): Promise<HttpTarget> {
  const target: HttpTarget = { origin: '', server: createServer(), connections: 0, requests: [] };
  const ids = new WeakMap<net.Socket, number>();
  target.server.keepAliveTimeout = LONG;
  target.server.on('connection', (socket) => ids.set(socket, ++target.connections));
  target.server.on('request', (req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      const body = Buffer.concat(parts);
      target.requests.push({ method: req.method!, url: req.url!, headers: req.headers, body, connection: ids.get(req.socket)! });
      void handler(req, res, body);
    });
  });
  target.origin = await listen(target.server);
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        target.server.closeAllConnections();
        target.server.close(() => resolve());
      }),
  );
  return target;
}

interface RawRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Buffer;
  /** Which TCP connection (1, 2 … in order of acceptance) and which request on it (0, 1 …). */
  connection: number;
  index: number;
}

interface RawTarget {
  origin: string;
  connections: number;
  requests: RawRequest[];
  /** setInterval, cleared when the socket closes or the test ends. */
  every(socket: net.Socket, ms: number, fn: () => void): void;
}

/** A `net` server that reads requests (head and Content-Length body) and leaves the answering to `onRequest`. */
async function rawTarget(onRequest: (socket: net.Socket, req: RawRequest) => unknown): Promise<RawTarget> {
  const sockets = new Set<net.Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const target: RawTarget = {
    origin: '',
    connections: 0,
    requests: [],
    every(socket, ms, fn) {
      const timer = setInterval(() => {
        if (!socket.destroyed) fn();
      }, ms);
      timers.add(timer);
      socket.on('close', () => clearInterval(timer));
    },
  };
  const server = net.createServer((socket) => {
    const connection = ++target.connections;
    sockets.add(socket);
    socket.setNoDelay(true);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let buffered = Buffer.alloc(0);
    let index = 0;
    socket.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      for (;;) {
        const at = buffered.indexOf('\r\n\r\n');
        if (at < 0) return;
        const [line, ...lines] = buffered.toString('latin1', 0, at).split('\r\n');
        const headers: Record<string, string> = {};
        for (const l of lines) headers[l.slice(0, l.indexOf(':')).toLowerCase()] = l.slice(l.indexOf(':') + 1).trim();
        const length = Number(headers['content-length'] ?? 0);
        if (buffered.length < at + 4 + length) return;
        const [method, path] = line!.split(' ');
        const req: RawRequest = { method: method!, path: path!, headers, body: buffered.subarray(at + 4, at + 4 + length), connection, index: index++ };
        buffered = buffered.subarray(at + 4 + length);
        target.requests.push(req);
        void onRequest(socket, req);
      }
    });
  });
  target.origin = await listen(server);
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearInterval(t);
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  );
  return target;
}

const tick = () => new Promise((resolve) => setImmediate(resolve));
const OK = 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok';

describe('H1Sender: keep-alive', () => {
  it('sequential requests on one connection: the server sees one TCP connection', async () => {
    const target = await httpTarget((_req, res) => res.end('hello'));
    const s = sender(target.origin);
    for (let i = 0; i < 10; i++) expect(await get(s, `/n/${i}`)).toEqual({ status: 200 });
    expect(target.connections).toBe(1);
    expect(target.requests.map((r) => r.url)).toEqual(Array.from({ length: 10 }, (_, i) => `/n/${i}`));
    expect(target.requests.every((r) => r.headers.host === s.host && r.connection === 1)).toBe(true);
    expect(s.host).toBe(target.origin.slice('http://'.length));
    expect([s.openConnections, s.inFlight]).toEqual([1, 0]);
  });

  it("a connection idle past the target's Keep-Alive timeout less a second is opened again, not reused", async () => {
    // Keep-Alive: timeout=1 leaves no idle time at all (1 s less the 1 s margin): every request gets a new connection.
    const target = await httpTarget((_req, res) => {
      res.setHeader('keep-alive', 'timeout=1');
      res.end('hello');
    });
    const s = sender(target.origin);
    for (let i = 0; i < 3; i++) expect(await get(s)).toEqual({ status: 200 });
    expect(target.connections).toBe(3);
  });

  it('sequential chunked answers (node:http without a length) keep the connection too', async () => {
    const target = await httpTarget((_req, res) => {
      res.write('part one, ');
      res.end('part two');
    });
    const s = sender(target.origin);
    for (let i = 0; i < 5; i++) expect(await get(s)).toEqual({ status: 200 });
    expect(target.connections).toBe(1);
  });

  it('connections: 3 with 3 at once opens 3 connections, and reuses them round after round', async () => {
    // The server answers only once all three requests of a round are in: they are at the server together.
    const pending: ServerResponse[] = [];
    const target = await httpTarget((_req, res) => {
      pending.push(res);
      if (pending.length === 3) for (const r of pending.splice(0)) r.end('x');
    });
    const s = sender(target.origin, { connections: 3 });
    for (let round = 0; round < 4; round++) {
      const outcomes = await Promise.all([get(s, '/a'), get(s, '/b'), get(s, '/c')]);
      expect(outcomes).toEqual([{ status: 200 }, { status: 200 }, { status: 200 }]);
      expect(target.connections).toBe(3);
    }
    expect(new Set(target.requests.map((r) => r.connection))).toEqual(new Set([1, 2, 3]));
    expect(s.openConnections).toBe(3);
  });

  it('more requests than connections: the rest wait their turn, and every one is answered', async () => {
    let atOnce = 0;
    let most = 0;
    const target = await httpTarget(async (_req, res) => {
      most = Math.max(most, ++atOnce);
      await tick();
      atOnce--;
      res.end('y');
    });
    const s = sender(target.origin, { connections: 2 });
    const outcomes = await Promise.all(Array.from({ length: 12 }, (_, i) => get(s, `/q/${i}`)));
    expect(outcomes.every((o) => o.status === 200 && o.error === undefined)).toBe(true);
    expect(target.connections).toBe(2);
    expect(most).toBeLessThanOrEqual(2);
    expect(target.requests.map((r) => r.url).sort()).toEqual(Array.from({ length: 12 }, (_, i) => `/q/${i}`).sort());
  });
});

describe('H1Sender: pipelining is off', () => {
  it('a connection never carries a second request before the first was answered', async () => {
    let violations = 0;
    let requests = 0;
    let connections = 0;
    const sockets = new Set<net.Socket>();
    const server = net.createServer((socket) => {
      connections++;
      sockets.add(socket);
      socket.on('error', () => {});
      let buffered = '';
      let answering = false;
      socket.on('data', (chunk: Buffer) => {
        // Any byte while an answer is owed is a pipelined request.
        if (answering) violations++;
        buffered += chunk.toString('latin1');
        const at = buffered.indexOf('\r\n\r\n');
        if (at < 0) return;
        if (buffered.length > at + 4) violations++;
        buffered = '';
        answering = true;
        requests++;
        // Answer a few turns later, giving a pipelining client every chance to write ahead.
        setTimeout(() => {
          answering = false;
          socket.write(OK);
        }, 5);
      });
    });
    const origin = await listen(server);
    cleanups.push(
      () =>
        new Promise<void>((resolve) => {
          for (const socket of sockets) socket.destroy();
          server.close(() => resolve());
        }),
    );
    const s = sender(origin, { connections: 1 });
    const outcomes = await Promise.all(Array.from({ length: 8 }, () => get(s)));
    expect(outcomes).toEqual(Array.from({ length: 8 }, () => ({ status: 200 })));
    expect([violations, requests, connections]).toEqual([0, 8, 1]);
  });
});

describe('H1Sender: bodies and framing', () => {
  it('a chunked body sent in many small writes (node:http, a write per turn)', async () => {
    const target = await httpTarget(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      for (let i = 0; i < 60; i++) {
        res.write('z'.repeat((i % 7) + 1));
        await tick();
      }
      res.end();
    });
    const s = sender(target.origin);
    expect(await get(s)).toEqual({ status: 200 });
    expect(await get(s)).toEqual({ status: 200 });
    expect(target.connections).toBe(1);
  });

  it('a chunked answer with extensions and trailers, written one byte per write, on three connections at once', async () => {
    const answer = Buffer.from('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4;ext=1\r\nabcd\r\n3\r\nefg\r\n0\r\nX-Trailer: t\r\n\r\n');
    const target = await rawTarget(async (socket) => {
      for (const byte of answer) {
        if (socket.destroyed) return;
        socket.write(Buffer.from([byte]));
        await tick();
      }
    });
    const s = sender(target.origin, { connections: 3 });
    for (let round = 0; round < 2; round++) {
      expect(await Promise.all([get(s), get(s), get(s)])).toEqual([{ status: 200 }, { status: 200 }, { status: 200 }]);
    }
    expect(target.connections).toBe(3);
  });

  it('POST with a JSON body: the server receives exactly its bytes and their content-length', async () => {
    const target = await httpTarget((_req, res) => {
      res.statusCode = 201;
      res.end();
    });
    const s = sender(target.origin);
    const body = JSON.stringify({ to: '+15550100', text: 'hello', n: [1, 2, 3] });
    expect(await send(s, encodeRequest('POST', '/messages', s.host, { 'content-type': 'application/json' }, body))).toEqual({ status: 201 });
    expect(await send(s, encodeRequest('POST', '/empty', s.host, {}, undefined))).toEqual({ status: 201 });
    const [withBody, empty] = target.requests;
    expect(withBody!.method).toBe('POST');
    expect(withBody!.headers['content-length']).toBe(String(body.length));
    expect(withBody!.headers['content-type']).toBe('application/json');
    expect(withBody!.body.equals(Buffer.from(body))).toBe(true);
    expect(empty!.headers['content-length']).toBe('0');
    expect(empty!.body.length).toBe(0);
    expect(target.connections).toBe(1);
  });

  it('a Unicode body: content-length is its UTF-8 byte length, and the bytes arrive intact', async () => {
    const target = await httpTarget((_req, res) => res.end());
    const s = sender(target.origin);
    const body = JSON.stringify({ text: 'Grüße, 世界 € 😀' });
    expect(Buffer.byteLength(body)).not.toBe(body.length);
    // As a string and as prebuilt bytes (a constant request is written as one Buffer).
    const text = encodeRequest('PUT', '/u', s.host, { 'content-type': 'application/json; charset=utf-8' }, body);
    expect(await send(s, text)).toEqual({ status: 200 });
    expect(await send(s, Buffer.from(text))).toEqual({ status: 200 });
    // Then a plain GET on the same connection: the server's framing of the PUTs was exact.
    expect(await get(s)).toEqual({ status: 200 });
    for (const r of target.requests.slice(0, 2)) {
      expect(r.headers['content-length']).toBe(String(Buffer.byteLength(body)));
      expect(r.body.toString('utf8')).toBe(body);
    }
    expect(target.connections).toBe(1);
  });

  it('HEAD: Content-Length: 1000 and no body is a complete answer, and the connection is reused', async () => {
    const target = await rawTarget((socket, req) => {
      socket.write(req.method === 'HEAD' ? 'HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n' : OK);
    });
    const s = sender(target.origin);
    const head = encodeRequest('HEAD', '/h', s.host, {}, undefined);
    expect(await send(s, head, { head: true })).toEqual({ status: 200 });
    expect(await get(s)).toEqual({ status: 200 });
    expect(await send(s, head, { head: true })).toEqual({ status: 200 });
    expect(target.connections).toBe(1);
    expect(target.requests.map((r) => r.method)).toEqual(['HEAD', 'GET', 'HEAD']);
  });

  it('HEAD to node:http (which sends the length of the body it does not send)', async () => {
    const target = await httpTarget((_req, res) => {
      res.setHeader('content-length', 1000);
      res.end();
    });
    const s = sender(target.origin);
    for (let i = 0; i < 3; i++) expect(await send(s, encodeRequest('HEAD', '/', s.host, {}, undefined), { head: true })).toEqual({ status: 200 });
    expect(target.connections).toBe(1);
  });

  it('204 and 304 have no body: both answered, the connection kept', async () => {
    const target = await httpTarget((req, res) => {
      res.statusCode = req.url === '/204' ? 204 : 304;
      if (req.url === '/304') res.setHeader('etag', '"v1"');
      res.end();
    });
    const s = sender(target.origin);
    for (let i = 0; i < 2; i++) {
      expect(await get(s, '/204')).toEqual({ status: 204 });
      expect(await get(s, '/304')).toEqual({ status: 304 });
    }
    expect(target.connections).toBe(1);
  });

  it('304 and 204 written raw with a Content-Length (of the representation): not waited for', async () => {
    const target = await rawTarget((socket, req) => {
      socket.write(req.path === '/304' ? 'HTTP/1.1 304 Not Modified\r\nContent-Length: 5000\r\n\r\n' : 'HTTP/1.1 204 No Content\r\nContent-Length: 10\r\n\r\n');
    });
    const s = sender(target.origin);
    expect(await get(s, '/304')).toEqual({ status: 304 });
    expect(await get(s, '/204')).toEqual({ status: 204 });
    expect(target.connections).toBe(1);
  });

  it('a body read to the end of the connection is complete when the server closes', async () => {
    const target = await rawTarget((socket) => socket.end('HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nuntil the end'));
    const s = sender(target.origin);
    expect(await get(s)).toEqual({ status: 200 });
    expect(await get(s)).toEqual({ status: 200 });
    expect(target.connections).toBe(2);
  });

  it('HTTP/1.0: closed after each answer, unless keep-alive', async () => {
    const target = await rawTarget((socket, req) => {
      socket.write(req.path === '/keep' ? 'HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 2\r\n\r\nok' : 'HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok');
    });
    const s = sender(target.origin);
    expect(await get(s, '/keep')).toEqual({ status: 200 });
    expect(await get(s, '/keep')).toEqual({ status: 200 });
    expect(target.connections).toBe(1);
    // Without keep-alive the sender closes its side after the answer; the next request opens a connection.
    expect(await get(s, '/close')).toEqual({ status: 200 });
    expect(s.openConnections).toBe(0);
    expect(await get(s, '/close')).toEqual({ status: 200 });
    expect(target.connections).toBe(2);
  });

  it('interim responses: 100 Continue and 103 Early Hints written raw before the final 200, in separate writes', async () => {
    const target = await rawTarget(async (socket) => {
      socket.write('HTTP/1.1 100 Continue\r\n\r\n');
      await tick();
      socket.write('HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload; as=style\r\n\r\n');
      await tick();
      socket.write('HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nfinal');
    });
    const s = sender(target.origin);
    expect(await get(s)).toEqual({ status: 200 });
    expect(await get(s)).toEqual({ status: 200 });
    expect(target.connections).toBe(1);
  });

  it('interim responses in the same write as the final one, and from node:http (writeContinue, writeEarlyHints)', async () => {
    const raw = await rawTarget((socket) => socket.write('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n'));
    const s1 = sender(raw.origin);
    expect(await get(s1)).toEqual({ status: 202 });
    expect(await get(s1)).toEqual({ status: 202 });
    expect(raw.connections).toBe(1);

    const node = await httpTarget((_req, res) => {
      res.writeContinue();
      res.writeEarlyHints({ link: '</style.css>; rel=preload; as=style' });
      res.end('done');
    });
    const s2 = sender(node.origin);
    expect(await get(s2)).toEqual({ status: 200 });
    expect(await get(s2)).toEqual({ status: 200 });
    expect(node.connections).toBe(1);
  });

  it('101 Switching Protocols fails the request with UND_ERR_UPGRADE; the next one gets a new connection', async () => {
    const target = await rawTarget((socket, req) => socket.write(req.path === '/up' ? 'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n' : OK));
    const s = sender(target.origin);
    expect(await get(s, '/up')).toEqual({ status: 0, error: 'UND_ERR_UPGRADE' });
    expect(await get(s, '/ok')).toEqual({ status: 200 });
    expect(target.connections).toBe(2);
  });

  it('bytes after the answer (nobody asked for them): the connection is dropped, the next request gets a new one', async () => {
    const target = await rawTarget((socket, req) => socket.write(req.index === 0 ? `${OK}HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n` : OK));
    const s = sender(target.origin);
    expect(await get(s)).toEqual({ status: 200 });
    await until(() => s.openConnections === 0);
    expect(await get(s)).toEqual({ status: 200 });
    expect(target.connections).toBe(2);
  });

  it('a malformed answer fails with its HPE_ code; the next request gets a new connection', async () => {
    const target = await rawTarget((socket, req) => {
      const bad: Record<string, string> = {
        '/status': 'HTTP/1.1 2x0 OK\r\n\r\n',
        '/length': 'HTTP/1.1 200 OK\r\nContent-Length: 12abc\r\n\r\n',
        '/lengths': 'HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nok',
        '/chunk': 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nxyz\r\n',
        '/notHttp': 'SSH-2.0-OpenSSH_9.6\r\n\r\n',
      };
      socket.write(bad[req.path] ?? OK);
    });
    const s = sender(target.origin);
    expect(await get(s, '/status')).toEqual({ status: 0, error: 'HPE_INVALID_STATUS' });
    expect(await get(s, '/length')).toEqual({ status: 0, error: 'HPE_INVALID_CONTENT_LENGTH' });
    expect(await get(s, '/lengths')).toEqual({ status: 0, error: 'HPE_UNEXPECTED_CONTENT_LENGTH' });
    expect(await get(s, '/chunk')).toEqual({ status: 0, error: 'HPE_INVALID_CHUNK_SIZE' });
    expect(await get(s, '/notHttp')).toEqual({ status: 0, error: 'HPE_INVALID_CONSTANT' });
    expect(await get(s, '/ok')).toEqual({ status: 200 });
    expect(target.connections).toBe(6);
  });
});

describe('H1Sender: servers that close', () => {
  it('Connection: close after every answer: each request on a new connection, all answered', async () => {
    const target = await httpTarget((_req, res) => {
      res.setHeader('connection', 'close');
      res.end('bye');
    });
    const s = sender(target.origin);
    for (let i = 0; i < 5; i++) expect(await get(s)).toEqual({ status: 200 });
    expect(target.connections).toBe(5);
  });

  it('Connection: close on chunked answers, with the next request sent from inside done', async () => {
    const target = await httpTarget((_req, res) => {
      res.setHeader('connection', 'close');
      res.write('a');
      res.end('b');
    });
    const s = sender(target.origin);
    const outcomes: SendOutcome[] = [];
    await new Promise<void>((resolve) => {
      const next = (): void => {
        const record = { label: 'chain', count: 0 };
        calls.push(record);
        s.send(encodeRequest('GET', '/', s.host, {}, undefined), false, LONG, (o) => {
          record.count++;
          outcomes.push(o);
          if (outcomes.length < 4) next();
          else resolve();
        });
      };
      next();
    });
    expect(outcomes).toEqual(Array.from({ length: 4 }, () => ({ status: 200 })));
    expect(target.connections).toBe(4);
  });

  it('a server that closes without saying (FIN after a framed answer): the next request succeeds on a new connection', async () => {
    const target = await rawTarget((socket) => socket.end(OK));
    const s = sender(target.origin);
    for (let i = 0; i < 3; i++) {
      expect(await get(s)).toEqual({ status: 200 });
      // The sender notices the close by itself, with no request on the connection.
      await until(() => s.openConnections === 0);
    }
    expect(target.connections).toBe(3);
  });

  it('a server that closes a kept connection as the next request arrives: a GET is sent once more on a new connection, a POST fails with UND_ERR_SOCKET', async () => {
    // What a keep-alive race looks like from the client: the request went out on a connection the server dropped,
    // and not a byte of an answer came back (RFC 9112 §9.3.1.1: only an idempotent request may be sent again).
    const target = await rawTarget((socket, req) => (req.index === 0 ? socket.write(OK) : socket.end()));
    const s = sender(target.origin);
    expect(await get(s)).toEqual({ status: 200 });
    expect(await get(s)).toEqual({ status: 200 });
    expect(target.connections).toBe(2);
    const post = encodeRequest('POST', '/', s.host, {}, '{}');
    expect(await send(s, post)).toEqual({ status: 0, error: 'UND_ERR_SOCKET' });
    // The POST reached the server once, and was not sent again.
    expect(target.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
    expect(await get(s)).toEqual({ status: 200 });
    expect(target.connections).toBe(3);
  });

  it('a GET whose retry is also closed unanswered fails with UND_ERR_SOCKET (one retry, only on a reused connection)', async () => {
    const target = await rawTarget((socket, req) => (req.index === 0 && target.connections === 1 ? socket.write(OK) : socket.end()));
    const s = sender(target.origin);
    expect(await get(s)).toEqual({ status: 200 });
    expect(await get(s)).toEqual({ status: 0, error: 'UND_ERR_SOCKET' });
    expect(target.connections).toBe(2);
  });

  it('a server that closes mid-head, mid-body and mid-chunks: UND_ERR_SOCKET each time, and the next request works', async () => {
    const target = await rawTarget((socket, req) => {
      const cut: Record<string, string> = {
        '/head': 'HTTP/1.1 200 OK\r\nContent-Le',
        '/body': 'HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly ten..',
        '/chunks': 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nabcde\r\n5\r\nab',
        '/trailers': 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nX-T: 1\r\n',
        '/nothing': '',
      };
      const text = cut[req.path];
      if (text === undefined) socket.write(OK);
      else socket.end(text);
    });
    const s = sender(target.origin);
    for (const path of ['/head', '/body', '/chunks', '/trailers', '/nothing']) {
      expect({ path, outcome: await get(s, path) }).toEqual({ path, outcome: { status: 0, error: 'UND_ERR_SOCKET' } });
      expect(await get(s, '/ok')).toEqual({ status: 200 });
    }
  });

  it('a server that resets the connection (before and mid-answer): ECONNRESET or UND_ERR_SOCKET, and the next request works', async () => {
    const target = await rawTarget(async (socket, req) => {
      if (req.path === '/ok') return void socket.write(OK);
      if (req.path === '/mid') {
        socket.write('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\npartial');
        await tick();
      }
      socket.resetAndDestroy();
    });
    const s = sender(target.origin);
    for (const path of ['/reset', '/mid']) {
      const outcome = await get(s, path);
      expect(outcome.status).toBe(0);
      expect(['ECONNRESET', 'UND_ERR_SOCKET']).toContain(outcome.error);
      expect(await get(s, '/ok')).toEqual({ status: 200 });
    }
  });

  it('ECONNREFUSED from a port nobody listens on; sends after it fail the same way, each once', async () => {
    const server = net.createServer();
    const origin = await listen(server);
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const s = sender(origin, { connections: 2 });
    expect(await get(s)).toEqual({ status: 0, error: 'ECONNREFUSED' });
    const outcomes = await Promise.all([get(s), get(s), get(s)]);
    expect(outcomes).toEqual(Array.from({ length: 3 }, () => ({ status: 0, error: 'ECONNREFUSED' })));
    expect([s.inFlight, s.openConnections]).toEqual([0, 0]);
  });
});

describe('H1Sender: caps', () => {
  it('a Content-Length over maxBodyBytes fails with UND_ERR_RES_EXCEEDED_MAX_SIZE; the next request works on a fresh connection', async () => {
    const target = await httpTarget((req, res) => res.end(req.url === '/big' ? 'b'.repeat(2000) : 'small'));
    const s = sender(target.origin, { maxBodyBytes: 1000 });
    expect(await get(s, '/big')).toEqual({ status: 0, error: 'UND_ERR_RES_EXCEEDED_MAX_SIZE' });
    expect(await get(s, '/small')).toEqual({ status: 200 });
    expect(await get(s, '/small')).toEqual({ status: 200 });
    expect(target.connections).toBe(2);
  });

  it('a body at exactly maxBodyBytes is read', async () => {
    const target = await httpTarget((_req, res) => res.end('e'.repeat(1000)));
    const s = sender(target.origin, { maxBodyBytes: 1000 });
    expect(await get(s)).toEqual({ status: 200 });
    expect(await get(s)).toEqual({ status: 200 });
    expect(target.connections).toBe(1);
  });

  it('a chunked body growing past maxBodyBytes fails the same way; the next request works on a fresh connection', async () => {
    const target = await httpTarget(async (req, res) => {
      if (req.url !== '/grow') return void res.end('small');
      // 300 bytes a turn, forever (until the client goes away): the cap, not the end, must stop it.
      while (!res.destroyed && !res.writableEnded) {
        res.write('g'.repeat(300));
        await tick();
        if (req.socket.destroyed) break;
      }
    });
    const s = sender(target.origin, { maxBodyBytes: 1000 });
    expect(await get(s, '/grow')).toEqual({ status: 0, error: 'UND_ERR_RES_EXCEEDED_MAX_SIZE' });
    expect(await get(s, '/small')).toEqual({ status: 200 });
    expect(target.connections).toBe(2);
  });

  it('a body read to the end of the connection past maxBodyBytes fails the same way', async () => {
    const target = await rawTarget((socket, req) => (req.path === '/ok' ? socket.write(OK) : socket.write(`HTTP/1.1 200 OK\r\n\r\n${'u'.repeat(1500)}`)));
    const s = sender(target.origin, { maxBodyBytes: 1000 });
    expect(await get(s, '/long')).toEqual({ status: 0, error: 'UND_ERR_RES_EXCEEDED_MAX_SIZE' });
    expect(await get(s, '/ok')).toEqual({ status: 200 });
  });

  it('a head over maxHeaderBytes fails with UND_ERR_HEADERS_OVERFLOW; the next request works', async () => {
    const target = await httpTarget((req, res) => {
      if (req.url === '/fat') res.setHeader('x-fat', 'f'.repeat(5000));
      res.end('ok');
    });
    const s = sender(target.origin, { maxHeaderBytes: 1024 });
    expect(await get(s, '/fat')).toEqual({ status: 0, error: 'UND_ERR_HEADERS_OVERFLOW' });
    expect(await get(s, '/thin')).toEqual({ status: 200 });
    expect(await get(s, '/thin')).toEqual({ status: 200 });
    expect(target.connections).toBe(2);
  });

  it('a head that never ends (a header line a byte at a time, no blank line) is cut at maxHeaderBytes, not waited for', async () => {
    const target = await rawTarget((socket) => {
      socket.write('HTTP/1.1 200 OK\r\nX-Endless: ');
      target.every(socket, 1, () => socket.write('e'.repeat(64)));
    });
    const s = sender(target.origin, { maxHeaderBytes: 2048 });
    expect(await get(s)).toEqual({ status: 0, error: 'UND_ERR_HEADERS_OVERFLOW' });
  });
});

describe('H1Sender: deadlines (codes only, never durations)', () => {
  it('a server that never answers: UND_ERR_HEADERS_TIMEOUT, and the next request gets a new connection', async () => {
    const target = await rawTarget((socket, req) => {
      if (req.path === '/ok') socket.write(OK);
    });
    const s = sender(target.origin);
    expect(await get(s, '/silent', { timeoutMs: 200 })).toEqual({ status: 0, error: 'UND_ERR_HEADERS_TIMEOUT' });
    expect(await get(s, '/ok')).toEqual({ status: 200 });
    expect(target.connections).toBe(2);
  });

  it('a head that drips (a byte every 50 ms, never complete): UND_ERR_HEADERS_TIMEOUT', async () => {
    const target = await rawTarget((socket) => {
      socket.write('HTTP/1.1 200 OK\r\n');
      target.every(socket, 50, () => socket.write('x'));
    });
    const s = sender(target.origin);
    expect(await get(s, '/', { timeoutMs: 300 })).toEqual({ status: 0, error: 'UND_ERR_HEADERS_TIMEOUT' });
  });

  it('a body that drips (the head, then a byte every 50 ms forever): UND_ERR_BODY_TIMEOUT', async () => {
    const target = await rawTarget((socket, req) => {
      if (req.path === '/ok') return void socket.write(OK);
      socket.write('HTTP/1.1 200 OK\r\nContent-Length: 1000000\r\n\r\n');
      target.every(socket, 50, () => socket.write('d'));
    });
    const s = sender(target.origin);
    // A first answer on the connection: the drip's head then comes over an open, warm connection.
    expect(await get(s, '/ok')).toEqual({ status: 200 });
    expect(await get(s, '/drip', { timeoutMs: 300 })).toEqual({ status: 0, error: 'UND_ERR_BODY_TIMEOUT' });
    expect(await get(s, '/ok')).toEqual({ status: 200 });
    expect(target.connections).toBe(2);
  });

  it('a chunked body that drips a chunk at a time: UND_ERR_BODY_TIMEOUT', async () => {
    const target = await rawTarget((socket) => {
      socket.write('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n');
      target.every(socket, 50, () => socket.write('1\r\nc\r\n'));
    });
    const s = sender(target.origin);
    expect(await get(s, '/', { timeoutMs: 300 })).toEqual({ status: 0, error: 'UND_ERR_BODY_TIMEOUT' });
  });

  it('answered requests are not failed by their deadline, the same deadline each time or a different one', async () => {
    const target = await httpTarget((_req, res) => res.end('quick'));
    const s = sender(target.origin);
    for (let i = 0; i < 5; i++) expect(await get(s, '/', { timeoutMs: 30_000 })).toEqual({ status: 200 });
    // A different deadline per request re-arms the timer each time.
    for (const timeoutMs of [20_000, 40_000, 20_000]) expect(await get(s, '/', { timeoutMs })).toEqual({ status: 200 });
    expect(s.inFlight).toBe(0);
  });

  it('a shorter deadline after long ones is kept (the connection timer, armed for far later, is set again)', async () => {
    const target = await rawTarget((socket, req) => {
      if (req.path === '/ok') socket.write(OK);
    });
    const s = sender(target.origin);
    // The timer now fires in a minute; a request with 200 ms must not wait for it.
    for (let i = 0; i < 3; i++) expect(await get(s, '/ok', { timeoutMs: 60_000 })).toEqual({ status: 200 });
    expect(await get(s, '/silent', { timeoutMs: 200 })).toEqual({ status: 0, error: 'UND_ERR_HEADERS_TIMEOUT' });
    // And a long one after it is answered, not cut at the short one's time.
    expect(await get(s, '/ok', { timeoutMs: 60_000 })).toEqual({ status: 200 });
  });
});

describe('H1Sender: disarmIdle and timers that fired (after a warm-up, engine/open-model.ts)', () => {
  it('a timer that fired while its connection was idle: the next request arms a new deadline', async () => {
    const target = await rawTarget((socket, req) => {
      if (req.path === '/ok') socket.write(OK);
    });
    const s = sender(target.origin);
    expect(await get(s, '/ok', { timeoutMs: 50 })).toEqual({ status: 200 });
    // Its timer fires while the connection is idle (a wait for that to happen, not a duration asserted).
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(await get(s, '/silent', { timeoutMs: 200 })).toEqual({ status: 0, error: 'UND_ERR_HEADERS_TIMEOUT' });
    expect(await get(s, '/ok')).toEqual({ status: 200 });
  });

  it('after disarmIdle an idle connection arms its next deadline, also one later than the cancelled timer', async () => {
    const target = await rawTarget((socket, req) => {
      if (req.path === '/ok') socket.write(OK);
    });
    const s = sender(target.origin, { connections: 2 });
    await Promise.all([get(s, '/ok', { timeoutMs: 100 }), get(s, '/ok', { timeoutMs: 100 })]);
    s.disarmIdle();
    // A cancelled timer still counted as armed (due before these deadlines) would leave them without one: they would
    // never end.
    expect(await Promise.all([get(s, '/silent', { timeoutMs: 300 }), get(s, '/silent', { timeoutMs: 300 })])).toEqual([
      { status: 0, error: 'UND_ERR_HEADERS_TIMEOUT' },
      { status: 0, error: 'UND_ERR_HEADERS_TIMEOUT' },
    ]);
  });

  it('disarmIdle leaves a request in flight its deadline', async () => {
    const target = await rawTarget(() => {});
    const s = sender(target.origin);
    const outcome = get(s, '/silent', { timeoutMs: 300 });
    await until(() => target.requests.length === 1);
    s.disarmIdle();
    expect(await outcome).toEqual({ status: 0, error: 'UND_ERR_HEADERS_TIMEOUT' });
  });
});

describe('H1Sender: abortAll', () => {
  it('fails every request in flight and every one waiting with HARNESS_ABORTED, each exactly once; later sends fail at once', async () => {
    const target = await rawTarget(() => {});
    const s = sender(target.origin, { connections: 2 });
    const outcomes = Array.from({ length: 5 }, (_, i) => get(s, `/w/${i}`));
    await until(() => target.requests.length === 2);
    expect([s.inFlight, s.openConnections]).toEqual([2, 2]);
    s.abortAll();
    expect(await Promise.all(outcomes)).toEqual(Array.from({ length: 5 }, () => ({ status: 0, error: ABORTED })));
    expect([s.inFlight, s.openConnections]).toEqual([0, 0]);
    // After the abort: failed at once, synchronously, without a connection.
    let later: SendOutcome | undefined;
    const record = { label: 'after abort', count: 0 };
    calls.push(record);
    s.send(encodeRequest('GET', '/late', s.host, {}, undefined), false, LONG, (o) => {
      record.count++;
      later = o;
    });
    expect(later).toEqual({ status: 0, error: ABORTED });
    expect(target.requests.length).toBe(2);
    expect(s.openConnections).toBe(0);
  });

  it('abortAll from inside a done, while the next waiting request is being handed the freed connection', async () => {
    const target = await rawTarget((socket) => socket.write(OK));
    const s = sender(target.origin, { connections: 1 });
    const first = { label: 'first', count: 0 };
    calls.push(first);
    const firstOutcome = new Promise<SendOutcome>((resolve) =>
      s.send(encodeRequest('GET', '/1', s.host, {}, undefined), false, LONG, (o) => {
        first.count++;
        s.abortAll();
        resolve(o);
      }),
    );
    const second = get(s, '/2');
    expect(await firstOutcome).toEqual({ status: 200 });
    expect(await second).toEqual({ status: 0, error: ABORTED });
    expect(target.requests.map((r) => r.path)).toEqual(['/1']);
  });

  it('close() with a body in flight aborts it once, and the drip that fed it is cut', async () => {
    const target = await rawTarget((socket) => {
      socket.write('HTTP/1.1 200 OK\r\nContent-Length: 1000000\r\n\r\n');
      target.every(socket, 5, () => socket.write('d'));
    });
    const s = sender(target.origin);
    const outcome = get(s);
    await until(() => target.requests.length === 1);
    s.close();
    expect(await outcome).toEqual({ status: 0, error: ABORTED });
  });
});
