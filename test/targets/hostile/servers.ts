/**
 * Small hostile targets on 127.0.0.1 port 0, each one fault a reviewer tried by hand: 10 MB bodies, accepting and
 * never answering, dripping one byte every 100 ms, crashing at request N, resets, malformed or truncated JSON,
 * HTTP/1.0, empty bodies, 100 KB headers; and (issue 22) 2 MiB non-ASCII bodies, a gzip bomb, an endless chunked
 * body, an echo of secrets split in halves and encoded, a login token with invalid UTF-8. Raw `net` servers where
 * `node:http` would not misbehave on demand.
 * Every socket is tracked so close() ends them all (a test must never leave a hanging server behind).
 */
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import { listenOnLoopback } from '../../helpers/listen-loopback.ts';

export type HostileKind =
  | 'big-body'
  | 'never-answers'
  | 'drip'
  | 'crash-at-n'
  | 'reset'
  | 'malformed-json'
  | 'truncated-json'
  | 'http-1.0'
  | 'empty-body'
  | 'huge-headers'
  | 'non-ascii-body'
  | 'gzip-bomb'
  | 'endless-chunked'
  | 'split-secrets'
  | 'bad-token'
  | 'deep-json';

export interface HostileTarget {
  baseUrl: string;
  /** Requests seen (for crash-at-n: up to the crash). */
  requests(): number;
  close(): Promise<void>;
}

export const HOSTILE_KINDS: readonly HostileKind[] = [
  'big-body', 'never-answers', 'drip', 'crash-at-n', 'reset', 'malformed-json', 'truncated-json', 'http-1.0', 'empty-body', 'huge-headers',
];

const TEN_MB = 10 * 1024 * 1024;
const TWO_MIB = 2 * 1024 * 1024;

/**
 * 2 MiB of bytes that are not ASCII: mostly invalid UTF-8 (each byte decodes to U+FFFD, a two-byte character in V8,
 * so the text is twice the bytes) with valid two- and three-byte sequences in between. The shape that drove
 * `harness run` out of memory (4.2 GB) when 4 KiB cuts of such bodies pinned the whole original string.
 */
export function nonAsciiBody(bytes = TWO_MIB): Buffer {
  const body = Buffer.alloc(bytes);
  const pattern = Buffer.from([0xff, 0xfe, 0xc3, 0xa9, 0xe6, 0x97, 0xa5, 0x80, 0xbf, 0xf0]);
  for (let i = 0; i < bytes; i += pattern.length) pattern.copy(body, i, 0, Math.min(pattern.length, bytes - i));
  return body;
}

/**
 * A gzip bomb: `members` gzip members of 64 MiB of zeros each, back to back (a valid multi-member stream), sent
 * with `Content-Encoding: gzip`: about 2 MB on the wire, 2 GiB inflated. The harness must never inflate it.
 */
let bombCache: Buffer | undefined;
export function gzipBomb(members = 32): Buffer {
  if (!bombCache) {
    const member = gzipSync(Buffer.alloc(64 * 1024 * 1024), { level: 9 });
    bombCache = Buffer.concat(Array.from({ length: members }, () => member));
  }
  return bombCache;
}
const LIST = '{"data":[],"pagination":{"next":null}}';

/**
 * A JSON document nested `depth` deep (arrays, every third level an object), about 3.3 bytes a level: 200 000 levels
 * make about 650 KB, well under the 1 MiB a body is kept whole, and far deeper than any recursive walk's stack.
 * V8's JSON.parse reads it (it is iterative); a recursive canonical form, schema walk or redaction does not.
 */
export function deepJson(depth = 200_000): string {
  const open: string[] = [];
  const close: string[] = [];
  for (let level = 0; level < depth; level++) {
    const object = level % 3 === 2;
    open.push(object ? '{"k":' : '[');
    close.push(object ? '}' : ']');
  }
  return `{"id":"msg_deep","status":"queued","data":${open.join('')}0${close.reverse().join('')}}`;
}

export interface HostileOptions {
  /**
   * crash-at-n: the request at which the server goes away (refusing every later connection). never-answers and
   * drip: the request from which on it hangs or drips (before it: a small JSON answer); 1 means from the very
   * first request, the preflight's. @default 20 for crash-at-n, 1 otherwise
   */
  faultAt?: number;
  /**
   * split-secrets: what it echoes on every answer — each long secret in two halves (two fields, and a header each),
   * each short one base64-, hex- and form-encoded under secret-word names and as whole values.
   */
  secrets?: { long: readonly string[]; short: readonly string[] };
  /** split-secrets: each half of a long secret also percent-encoded and in base64, in fields of its own. */
  encodedHalves?: boolean;
}

export async function startHostile(kind: HostileKind, options: HostileOptions = {}): Promise<HostileTarget> {
  const sockets = new Set<Socket>();
  let requests = 0;
  let server: Server;
  const raw = (onData: (socket: Socket) => void): Server =>
    createNetServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
      let seen = false;
      socket.on('data', () => {
        // One answer per connection is enough for these shapes; the harness opens new connections as it needs.
        if (seen) return;
        seen = true;
        requests++;
        onData(socket);
      });
    });
  const http = (handler: (req: IncomingMessage, res: ServerResponse) => void): Server => {
    const s = createHttpServer({ maxHeaderSize: 64 * 1024 }, (req, res) => {
      requests++;
      req.resume();
      handler(req, res);
    });
    s.on('connection', (socket: Socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    return s;
  };
  // Every request answered 200 with the same body and its Content-Length.
  const sized = (body: Buffer, headers: Record<string, string>): Server =>
    http((_req, res) => {
      res.writeHead(200, { ...headers, 'content-length': body.length });
      res.end(body);
    });
  switch (kind) {
    case 'big-body': {
      server = sized(Buffer.alloc(TEN_MB, 'a'), { 'content-type': 'application/json' });
      break;
    }
    case 'non-ascii-body': {
      server = sized(nonAsciiBody(), { 'content-type': 'application/json; charset=utf-8' });
      break;
    }
    case 'gzip-bomb': {
      server = sized(gzipBomb(), { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      break;
    }
    case 'endless-chunked': {
      const faultAt = options.faultAt ?? 1;
      const chunk = Buffer.alloc(16 * 1024, ' ');
      server = http((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        if (requests < faultAt) return void res.end(LIST);
        // A chunked body that never ends: 16 KiB every 10 ms, so no idle timeout ever fires, and a request's 10 s
        // deadline comes long before the reader's 64 MiB body cap (≈ 16 MiB by then; at full loopback speed the cap
        // came first, in about 0.1 s, and the run tested the cap instead of the deadline; the cap has its own tests).
        const pump = setInterval(() => {
          if (res.destroyed) clearInterval(pump);
          else res.write(chunk);
        }, 10);
        res.once('close', () => clearInterval(pump));
      });
      break;
    }
    case 'bad-token': {
      // Logs anyone in, with a token holding bytes that are not UTF-8 (decoded: U+FFFD): the token cannot go
      // back into an Authorization header. Everything else is an ordinary empty list.
      const token = Buffer.concat([Buffer.from('"tok_'), Buffer.from([0xff, 0xfe]), Buffer.from('abc"')]);
      server = http((req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        if (req.method === 'POST' && req.url?.startsWith('/v1/auth/login')) {
          res.end(Buffer.concat([Buffer.from('{"token":'), token, Buffer.from(',"expires_in":900}')]));
        } else res.end(LIST);
      });
      break;
    }
    case 'split-secrets': {
      const { long = [], short = [] } = options.secrets ?? {};
      server = http((_req, res) => {
        const body: Record<string, unknown> = { data: [], pagination: { next: null, limit: 20 } };
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        long.forEach((secret, i) => {
          const half = Math.floor(secret.length / 2);
          body[`echo_split1_${i}`] = secret.slice(0, half);
          body[`note_${i}`] = `second part follows`;
          body[`echo_split2_${i}`] = secret.slice(half);
          headers[`x-part-a-${i}`] = secret.slice(0, half);
          headers[`x-part-b-${i}`] = secret.slice(half);
          if (options.encodedHalves) {
            body[`part_a_url_${i}`] = encodeURIComponent(secret.slice(0, half));
            body[`part_b_url_${i}`] = encodeURIComponent(secret.slice(half));
            body[`part_a_b64_${i}`] = Buffer.from(secret.slice(0, half)).toString('base64');
            body[`part_b_b64_${i}`] = Buffer.from(secret.slice(half)).toString('base64');
          }
        });
        short.forEach((secret, i) => {
          body[`password_b64_${i}`] = Buffer.from(secret).toString('base64');
          body[`echo_split1_password_${i}`] = secret.slice(0, 3);
          body[`whole_b64_${i}`] = Buffer.from(secret).toString('base64');
          body[`whole_hex_${i}`] = Buffer.from(secret).toString('hex');
          body[`whole_form_${i}`] = encodeURIComponent(secret);
        });
        res.writeHead(200, headers);
        res.end(JSON.stringify(body));
      });
      break;
    }
    case 'deep-json': {
      const body = Buffer.from(deepJson());
      server = http((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
        res.end(body);
      });
      break;
    }
    case 'never-answers': {
      const faultAt = options.faultAt ?? 1;
      server = http((_req, res) => {
        if (requests >= faultAt) return; // accepted, read, never answered
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(LIST);
      });
      break;
    }
    case 'drip': {
      const faultAt = options.faultAt ?? 1;
      server = http((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        if (requests < faultAt) return void res.end(LIST);
        // Headers at once, then one byte every 100 ms, forever: only a total deadline ends this.
        const timer = setInterval(() => res.write(' '), 100);
        res.on('close', () => clearInterval(timer));
      });
      break;
    }
    case 'crash-at-n': {
      const crashAt = options.faultAt ?? 20;
      server = http((_req, res) => {
        if (requests >= crashAt) {
          // The process "dies": no answer, every connection cut, nothing listens any more.
          server.close();
          for (const socket of sockets) socket.destroy();
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(LIST);
      });
      break;
    }
    case 'reset':
      server = raw((socket) => socket.resetAndDestroy());
      break;
    case 'malformed-json':
      server = http((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"data": [1, 2,, }');
      });
      break;
    case 'truncated-json':
      // Content-Length promises more than is sent, then the connection closes.
      server = raw((socket) => {
        socket.end('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"data": [{"id": "m');
      });
      break;
    case 'http-1.0':
      server = raw((socket) => {
        socket.end(`HTTP/1.0 200 OK\r\ncontent-type: application/json\r\n\r\n${LIST}`);
      });
      break;
    case 'empty-body':
      server = http((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': 0 });
        res.end();
      });
      break;
    case 'huge-headers': {
      const value = 'x'.repeat(100 * 1024);
      server = raw((socket) => {
        socket.end(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nx-padding: ${value}\r\ncontent-length: ${LIST.length}\r\nconnection: close\r\n\r\n${LIST}`);
      });
      break;
    }
  }
  const baseUrl = await listenOnLoopback(server);
  return {
    baseUrl,
    requests: () => requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        if (!server.listening) return resolve();
        server.close(() => resolve());
      }),
  };
}

/** A port nothing listens on (bound, then released): the preflight's "crashed before the run" case. */
export async function closedPort(): Promise<string> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
