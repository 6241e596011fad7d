/**
 * One keep-alive HTTP/1.1 connection of the load sender: one request at a time (pipelining off), its bytes written
 * in one write, its answer read by ResponseParser straight from the socket's read buffer. The socket is opened on
 * the first request and again after the target closed it (Connection: close, a body read to the end of the
 * connection, an idle close, a broken response); a request never waits for another one's connection.
 *
 * The request's deadline is total, from the write to its last byte (a head that never comes, a body that drips
 * or never ends all end there): one timer per connection, left alone while it fires before the request's deadline
 * and then set again for the rest, since the open model sends tens of thousands a second.
 *
 * A target may close an idle connection at any time (RFC 9112 §9.3.1), and a request written just as it does is
 * lost with it. Two guards, as undici and browsers have: a connection idle longer than the target's
 * `Keep-Alive: timeout` less a second (4 s when it states none, undici's default) is not reused but opened again;
 * and an idempotent request (GET, HEAD, PUT, DELETE, OPTIONS) whose reused connection closed before a byte of its
 * answer came is written once more on a new one (§9.3.1.1). A POST lost that way fails with UND_ERR_SOCKET.
 */
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import tls from 'node:tls';
import { ResponseError, ResponseParser, type ParserLimits } from './response-parser.ts';

export interface SendOutcome {
  /** HTTP status, or 0 on a transport error. */
  status: number;
  /** Transport error code (ECONNRESET, UND_ERR_HEADERS_TIMEOUT …), when status is 0. */
  error?: string;
}

export type SendDone = (outcome: SendOutcome) => void;

export interface Endpoint {
  host: string;
  port: number;
  tls: boolean;
  /** TLS server name (SNI), when `host` is a name. */
  servername?: string;
}

/** What all connections of one sender share: the endpoint, the caps and one read buffer (reads are handled at once). */
export interface ConnectionContext {
  endpoint: Endpoint;
  limits: ParserLimits;
  readBuffer: Buffer;
  /** Called when a connection becomes free again (just before its request's `done` runs). */
  released(connection: Connection): void;
}

/** undici's code for a connection the other side closed before the answer was complete. */
export const SOCKET_CLOSED = 'UND_ERR_SOCKET';

/** How long an idle connection is reused when the target states no Keep-Alive timeout (undici's default). */
const DEFAULT_IDLE_MS = 4000;
/** Taken off the target's stated timeout: its close and our reuse must not cross on the wire (undici's threshold). */
const IDLE_MARGIN_MS = 1000;
const IDEMPOTENT = /^(?:GET|HEAD|PUT|DELETE|OPTIONS|TRACE) /;

let timeoutShapeSettled = false;

/**
 * Node keeps a timer's delay in its Timeout's `_idleTimeout` field. The first Timeout made with a fractional delay
 * turns that field from small integer to double for every Timeout, and each one made before it is migrated, one at a
 * time, when it is next touched. The warm-up gives each connection a timer of a whole number of ms; the pacer's
 * fractional ones come after: with 1000 VUs the thousand timers fired together about a second into the run, each one
 * migrated, and V8 threw away the optimised timer-list code (--trace-migration, --trace-deopt). One fractional
 * Timeout before any connection's settles the field for good.
 */
function settleTimeoutShape(): void {
  if (timeoutShapeSettled) return;
  timeoutShapeSettled = true;
  clearTimeout(setTimeout(() => {}, 1.5));
}

export class Connection {
  busy = false;
  readonly #context: ConnectionContext;
  readonly #parser: ResponseParser;
  #socket: net.Socket | undefined;
  #done: SendDone | undefined;
  // #due and #idleSince hold fractional times: made doubles at once (NaN until first set), they never change
  // representation later. Stored first as the small integer 0, the first connection to set one made V8 deprecate the
  // map every other connection already had, and migrate each of them when next used (--trace-migration: 999 with
  // 1000 VUs).
  #due = NaN;
  /** The live timer (undefined once it has fired: a fired timer is never cleared). */
  #timer: NodeJS.Timeout | undefined;
  /** When the armed timer fires (performance.now()); Infinity when none is armed. */
  #firesAt = Infinity;
  #bytes: Buffer | string = '';
  /** Answers completed on the current socket (a request on a reused one may be retried). */
  #uses = 0;
  /** Bytes of the current request's answer read so far (only whether any is used). */
  #received = 0;
  #retried = false;
  #idleSince = NaN;
  #idleMs = DEFAULT_IDLE_MS;

  constructor(context: ConnectionContext) {
    settleTimeoutShape();
    this.#context = context;
    this.#parser = new ResponseParser(context.limits);
  }

  /** Whether a socket is open (or opening). */
  get open(): boolean {
    return this.#socket !== undefined;
  }

  send(bytes: Buffer | string, head: boolean, timeoutMs: number, done: SendDone): void {
    this.busy = true;
    this.#done = done;
    this.#bytes = bytes;
    this.#received = 0;
    this.#retried = false;
    this.#parser.reset(head);
    const now = performance.now();
    this.#arm(now, timeoutMs);
    if (this.#socket && now - this.#idleSince > this.#idleMs) this.#drop();
    const socket = this.#socket ?? this.#connect();
    // Written before the connect completes, the bytes wait in the socket's queue and go out with it.
    socket.write(bytes);
  }

  /** Ends the request in flight (if any) with `code` and closes the socket. */
  fail(code: string): void {
    this.#drop();
    this.#finish({ status: 0, error: code });
  }

  /** Closes the socket; a request in flight is not answered (use `fail` for that). */
  destroy(): void {
    this.#drop();
    this.#cancelTimer();
  }

  /** Cancels the timer of a connection with no request in flight (H1Sender.disarmIdle says why). */
  disarm(): void {
    if (!this.busy) this.#cancelTimer();
  }

  #cancelTimer(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#firesAt = Infinity;
  }

  #arm(now: number, timeoutMs: number): void {
    this.#due = now + timeoutMs;
    // A live timer that fires before this deadline is left alone: it fires early, and #onTimer sets a new one for
    // what is left. So a request costs no timer work at all while the connection is busy (refresh() took a timer
    // list removal and insert per request).
    if (this.#firesAt <= this.#due) return;
    // None live (the first request, or the last timer fired while the connection was idle), or one set for later
    // than this deadline (a shorter timeout than the last request's): a new timer. Always this one path, never
    // refresh(): the warm-up runs it on every connection, so nothing in it is first done in the run, where V8 would
    // throw away and recompile the hot path (--trace-deopt showed exactly that when the warm-up's timers first fired).
    this.#setTimer(now, timeoutMs);
  }

  #setTimer(now: number, ms: number): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.#onTimer(), ms).unref();
    this.#firesAt = now + ms;
  }

  #onTimer(): void {
    // A fired timer needs no clearTimeout: forgetting it here keeps #setTimer on the path the warm-up took (no live
    // timer). Cleared there instead, the first run request on each connection after the warm-up's timers had fired
    // took a branch the warm-up never took, and V8 threw away the optimised send (--trace-deopt: "insufficient type
    // feedback" in clearTimeout, about 1.2 s into a run with 1000 VUs).
    this.#timer = undefined;
    this.#firesAt = Infinity;
    if (!this.busy) return;
    const now = performance.now();
    const left = this.#due - now;
    // Node's timers run on a millisecond clock and may fire a fraction of a millisecond early.
    if (left > 1) {
      // The request has longer than the timer was set for (see #arm): set one for the rest.
      this.#setTimer(now, left);
      return;
    }
    this.fail(this.#parser.inHead ? 'UND_ERR_HEADERS_TIMEOUT' : 'UND_ERR_BODY_TIMEOUT');
  }

  #connect(): net.Socket {
    const { endpoint, readBuffer } = this.#context;
    let socket: net.Socket;
    if (endpoint.tls) {
      socket = tls.connect({ host: endpoint.host, port: endpoint.port, ALPNProtocols: ['http/1.1'], ...(endpoint.servername ? { servername: endpoint.servername } : {}) });
      socket.setNoDelay(true);
      socket.on('data', (chunk: Buffer) => this.#onData(socket, chunk, chunk.length));
    } else {
      // onread: the socket reads into one buffer this sender owns, so no Buffer is made per read.
      socket = net.connect({ host: endpoint.host, port: endpoint.port, noDelay: true, onread: { buffer: readBuffer, callback: (nread: number, buf: Uint8Array) => (this.#onData(socket, buf as Buffer, nread), true) } });
    }
    socket.on('end', () => this.#onEnd(socket));
    socket.on('error', (err: NodeJS.ErrnoException) => this.#onClosed(socket, err.code ?? err.name ?? 'error'));
    socket.on('close', () => this.#onClosed(socket, SOCKET_CLOSED));
    this.#socket = socket;
    this.#uses = 0;
    return socket;
  }

  #onData(socket: net.Socket, buf: Buffer, end: number): void {
    if (socket !== this.#socket) return;
    if (!this.busy) {
      // Bytes nobody asked for (pipelining is off): the connection's framing can no longer be trusted.
      this.#drop();
      return;
    }
    this.#received += end;
    let used: number;
    try {
      used = this.#parser.execute(buf, 0, end);
    } catch (err) {
      this.fail(err instanceof ResponseError ? err.code : 'HPE_INTERNAL');
      return;
    }
    if (!this.#parser.done) return;
    // Bytes past the answer, or an answer that ends the connection: the next request gets a new socket.
    if (used < end || !this.#parser.keepAlive) this.#drop();
    this.#uses++;
    const stated = this.#parser.keepAliveTimeoutS;
    this.#idleMs = stated >= 0 ? Math.max(0, stated * 1000 - IDLE_MARGIN_MS) : DEFAULT_IDLE_MS;
    this.#idleSince = performance.now();
    this.#finish({ status: this.#parser.status });
  }

  #onEnd(socket: net.Socket): void {
    if (socket !== this.#socket) return;
    if (this.busy && this.#parser.readsUntilClose) {
      this.#drop();
      this.#finish({ status: this.#parser.status });
      return;
    }
    this.#onClosed(socket, SOCKET_CLOSED);
  }

  #onClosed(socket: net.Socket, code: string): void {
    if (socket !== this.#socket) return;
    const reused = this.#uses > 0;
    this.#drop();
    if (!this.busy) return;
    // The target closed a kept connection as this request went out on it: nothing of it was answered (§9.3.1.1).
    if (reused && this.#received === 0 && !this.#retried && IDEMPOTENT.test(head(this.#bytes))) {
      this.#retried = true;
      this.#connect().write(this.#bytes);
      return;
    }
    this.#finish({ status: 0, error: code });
  }

  #drop(): void {
    this.#uses = 0;
    const socket = this.#socket;
    this.#socket = undefined;
    socket?.destroy();
  }

  #finish(outcome: SendOutcome): void {
    if (!this.busy) return;
    const done = this.#done as SendDone;
    this.busy = false;
    this.#done = undefined;
    // Free before `done` runs: the next request `done` sends may take this connection (or a queued one does).
    this.#context.released(this);
    done(outcome);
  }
}

/** The start of a request's bytes, enough for its method. */
function head(bytes: Buffer | string): string {
  return typeof bytes === 'string' ? bytes.slice(0, 8) : bytes.toString('latin1', 0, 8);
}
