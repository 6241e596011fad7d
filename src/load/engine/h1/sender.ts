/**
 * The open model's HTTP/1.1 sender: a fixed set of keep-alive connections (one per VU, opened on first use),
 * requests written as prebuilt bytes, answers framed by ResponseParser and dropped. Built for the least work per
 * request — what wrk and autocannon do, and what undici's general-purpose client (promises or handlers, header
 * objects, body streams, a timer per request) could not get down to: docs/performance.md has both, measured.
 *
 * A free connection is taken in turn (first freed, first reused), so every connection carries a share of the load
 * and none sits idle long enough for the target's keep-alive timeout. With more requests than connections at
 * once (the open model never does this: its slots are the connections) the rest wait in order.
 */
import { Buffer } from 'node:buffer';
import { ABORTED } from '../send-errors.ts';
import { Connection, type ConnectionContext, type Endpoint, type SendDone } from './connection.ts';
import type { ParserLimits } from './response-parser.ts';

export type { SendDone, SendOutcome } from './connection.ts';

/** Node's and undici's default for a response head. */
export const DEFAULT_MAX_HEADER_BYTES = 16 * 1024;
/** Bodies are counted, never kept; past this a request fails (a bound on time and bandwidth, not on memory). */
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024 * 1024;
/** One read buffer for all the sender's plain-TCP connections (each read is handled before the next). */
const READ_BUFFER_BYTES = 64 * 1024;

export interface H1SenderOptions {
  /** http(s)://host:port of the target. */
  origin: string;
  /** Most connections (the open model's slots). */
  connections: number;
  maxHeaderBytes?: number;
  maxBodyBytes?: number;
}

interface Waiting {
  bytes: Buffer | string;
  head: boolean;
  timeoutMs: number;
  done: SendDone;
}

export class H1Sender {
  /** The Host header for requests to this origin. */
  readonly host: string;
  readonly #context: ConnectionContext;
  readonly #max: number;
  readonly #all: Connection[] = [];
  /** Free connections, oldest first (a ring over `#all`'s size). */
  readonly #free: Connection[] = [];
  #freeHead = 0;
  readonly #waiting: Waiting[] = [];
  #closed = false;

  constructor(options: H1SenderOptions) {
    const url = new URL(options.origin);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`the load sender speaks http and https, not ${url.protocol}`);
    const secure = url.protocol === 'https:';
    const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    const endpoint: Endpoint = { host: hostname, port: Number(url.port || (secure ? 443 : 80)), tls: secure, ...(secure && !/^[\d.:]+$/.test(hostname) ? { servername: hostname } : {}) };
    this.host = url.host;
    this.#max = Math.max(1, options.connections);
    const limits: ParserLimits = { maxHeaderBytes: options.maxHeaderBytes ?? DEFAULT_MAX_HEADER_BYTES, maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES };
    this.#context = { endpoint, limits, readBuffer: Buffer.allocUnsafe(READ_BUFFER_BYTES), released: (c) => this.#released(c) };
  }

  /** Requests written and not yet answered. */
  get inFlight(): number {
    let n = 0;
    for (const c of this.#all) if (c.busy) n++;
    return n;
  }

  /** Connections with a socket open now. */
  get openConnections(): number {
    return this.#all.filter((c) => c.open).length;
  }

  /**
   * Sends one request (`bytes`: its encoded head and body, request-bytes.ts; `head`: it is a HEAD request) and
   * calls `done` once, with the status or a transport error code, when its answer has been read or it failed.
   */
  send(bytes: Buffer | string, head: boolean, timeoutMs: number, done: SendDone): void {
    if (this.#closed) return done({ status: 0, error: ABORTED });
    const connection = this.#takeFree() ?? this.#create();
    if (connection) connection.send(bytes, head, timeoutMs, done);
    else this.#waiting.push({ bytes, head, timeoutMs, done });
  }

  /** Fails every request in flight or waiting with ABORTED (the run was stopped); later sends fail at once. */
  abortAll(): void {
    this.#closed = true;
    for (const w of this.#waiting.splice(0)) w.done({ status: 0, error: ABORTED });
    for (const c of this.#all) {
      if (c.busy) c.fail(ABORTED);
      c.destroy();
    }
  }

  /**
   * Cancels the deadline timers of the connections with nothing in flight. Called after a warm-up: its first
   * requests go out on every connection at once, so their timers, armed together, would fire together
   * MAX_WARM_UP_REQUEST_MS later, about a second into the run — with 1000 VUs, a thousand callbacks in one turn of
   * the loop, a stall there (bench/load-engine warmstart, docs/performance.md). Each connection arms a
   * new timer at its next request instead, spread over time as the arrivals are.
   */
  disarmIdle(): void {
    for (const c of this.#all) c.disarm();
  }

  /** Closes every connection; a request still in flight is failed with ABORTED. */
  close(): void {
    this.abortAll();
  }

  #takeFree(): Connection | undefined {
    if (this.#freeHead >= this.#free.length) return undefined;
    const c = this.#free[this.#freeHead++] as Connection;
    // Compact now and then rather than shift() on every take.
    if (this.#freeHead > 64 && this.#freeHead * 2 > this.#free.length) {
      this.#free.splice(0, this.#freeHead);
      this.#freeHead = 0;
    }
    return c;
  }

  #create(): Connection | undefined {
    if (this.#all.length >= this.#max) return undefined;
    const c = new Connection(this.#context);
    this.#all.push(c);
    return c;
  }

  #released(c: Connection): void {
    if (this.#closed) return c.destroy();
    const w = this.#waiting.shift();
    // A waiting request goes out after the current `done` has run (the connection is mid-callback now).
    if (w) queueMicrotask(() => (this.#closed ? w.done({ status: 0, error: ABORTED }) : c.send(w.bytes, w.head, w.timeoutMs, w.done)));
    else this.#free.push(c);
  }
}
