/**
 * The harness's HTTP client for conformance traffic (undici Pool, keep-alive). It never follows redirects
 * (OAuth checks read the 302 themselves), records every exchange for evidence, reports transport failures as
 * `TransportError` instead of throwing undici internals, and — unless a check opts out — waits out a 429 the
 * way a polite client does (bounded), so a target with a small quota is not failed by checks about other things.
 */
import { Pool, type Dispatcher } from 'undici';
import { readBody } from './body-reader.ts';
import { requestDeadline } from './deadline.ts';
import { recordExchange, type Exchange } from './exchange.ts';
import { observeAnswer, politeSend, PoliteState } from './polite-wait.ts';
import { tooDeep } from '../util/deep-json.ts';

export interface RequestOptions {
  method?: string;
  /** Path relative to the base URL, may include a query string; or an absolute URL on the same origin. */
  path: string;
  query?: Record<string, string | number | boolean | undefined | null>;
  headers?: Record<string, string>;
  /** Serialised as JSON with `Content-Type: application/json` unless a content type is given. */
  json?: unknown;
  /** Sent as `application/x-www-form-urlencoded`. */
  form?: Record<string, string | undefined>;
  /** Raw body, sent as is. */
  body?: string;
  /** Credential sent as `Authorization: Bearer <bearer>`. */
  bearer?: string;
  /** Wait out 429 answers (bounded). @default the client's setting */
  retryOn429?: boolean;
  /** Aborts the request (besides the check's deadline in scope and the total deadline). */
  signal?: AbortSignal;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
  durationMs: number;
  exchange: Exchange;
  /** Lower-cased header lookup. */
  header(name: string): string | undefined;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json<T = unknown>(): T | undefined;
}

export interface HttpClientOptions {
  baseUrl: string;
  /** Per-request timeout: a total deadline for headers and body, and the idle timeouts. @default 10000 */
  timeoutMs?: number;
  /** Connections kept to the target. @default 8 */
  connections?: number;
  /** Wait out 429s by default. @default true */
  retryOn429?: boolean;
  /** Longest single Retry-After wait, in seconds, before giving up and returning the 429. @default 10 */
  maxRetryAfterSeconds?: number;
  /** Retries per request on 429. @default 3 */
  max429Retries?: number;
  /** Run-wide polite-waiting state (polite-wait.ts): Retry-After lies seen, the policy announced. @default a fresh one */
  polite?: PoliteState;
  /** Called for every exchange (the standing no-5xx check and traffic counters listen here). */
  onExchange?: (exchange: Exchange) => void;
  /** Sleep, replaceable in tests. */
  sleep?: (ms: number) => Promise<void>;
  /**
   * Where requests go instead of a Pool of our own: undici's MockAgent in tests of transport faults that a real
   * server cannot produce on demand (DNS failure, a reset in the middle of a body). @default a Pool to the origin
   */
  dispatcher?: Dispatcher;
}

/** No HTTP response at all: refused, reset, timed out. `code` is the system / undici code. */
export class TransportError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly exchange: Exchange,
  ) {
    super(message);
    this.name = 'TransportError';
  }
}

/**
 * A request the harness cannot put on the wire because a header value holds characters HTTP does not allow: in
 * practice a credential the target issued (a token with invalid UTF-8 or a control character) that goes back into
 * `Authorization`. Nothing was sent, so it is no transport failure (it never counts toward "target lost"); the
 * runner reports it as a finding about the target (runner.ts).
 */
export class UnsendableRequestError extends Error {
  constructor(
    message: string,
    readonly header: string,
  ) {
    super(message);
    this.name = 'UnsendableRequestError';
  }
}

/** What a header value may hold (RFC 9110 §5.5 field-value: visible ASCII, space, tab, obs-text), as undici checks it. */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** How long close() lets in-flight requests finish before it destroys the connections. */
const CLOSE_GRACE_MS = 1000;

export class HttpClient {
  readonly baseUrl: string;
  readonly #origin: string;
  readonly #basePath: string;
  readonly #pool: Dispatcher;
  readonly #opts: Required<Omit<HttpClientOptions, 'onExchange' | 'baseUrl' | 'dispatcher' | 'polite'>> & Pick<HttpClientOptions, 'onExchange'>;
  /** What polite waiting learnt in this run (shared with whoever passed it in). */
  readonly polite: PoliteState;

  constructor(options: HttpClientOptions) {
    const url = new URL(options.baseUrl);
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.#origin = url.origin;
    this.#basePath = url.pathname.replace(/\/+$/, '');
    this.#opts = {
      timeoutMs: options.timeoutMs ?? 10_000,
      connections: options.connections ?? 8,
      retryOn429: options.retryOn429 ?? true,
      maxRetryAfterSeconds: options.maxRetryAfterSeconds ?? 10,
      max429Retries: options.max429Retries ?? 3,
      onExchange: options.onExchange,
      sleep: options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
    };
    this.polite = options.polite ?? new PoliteState();
    this.#pool = options.dispatcher ?? new Pool(this.#origin, {
      connections: this.#opts.connections,
      headersTimeout: this.#opts.timeoutMs,
      bodyTimeout: this.#opts.timeoutMs,
      connectTimeout: this.#opts.timeoutMs,
    });
  }

  /** Full URL for a path (with query), as sent. */
  url(path: string, query?: RequestOptions['query']): string {
    const target = /^https?:\/\//.test(path) ? new URL(path) : new URL(this.#basePath + path, this.#origin);
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value !== undefined && value !== null) target.searchParams.append(name, String(value));
    }
    return target.toString();
  }

  async request(options: RequestOptions): Promise<HttpResponse> {
    const retry = options.retryOn429 ?? this.#opts.retryOn429;
    if (!retry) return observeAnswer(await this.#send(options), this.polite);
    const { maxRetryAfterSeconds, max429Retries, sleep } = this.#opts;
    return politeSend(() => this.#send(options), { method: (options.method ?? 'GET').toUpperCase(), url: this.url(options.path, options.query) }, {
      state: this.polite,
      sleep,
      maxWaitSeconds: maxRetryAfterSeconds,
      maxRetries: max429Retries,
    });
  }

  /** Closes the connections; a request still stuck after a short grace is cut (destroy), never waited for. */
  async close(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const closed = this.#pool.close().then(() => true, () => true);
    const graceOver = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), CLOSE_GRACE_MS)));
    const inTime = await Promise.race([closed, graceOver]);
    clearTimeout(timer);
    if (!inTime) await this.#pool.destroy().catch(() => undefined);
  }

  async #send(options: RequestOptions): Promise<HttpResponse> {
    const method = (options.method ?? 'GET').toUpperCase();
    const url = this.url(options.path, options.query);
    const headers: Record<string, string> = { accept: 'application/json, application/problem+json;q=0.9, */*;q=0.1' };
    let body: string | undefined;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.form !== undefined) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      const form = new URLSearchParams();
      for (const [k, v] of Object.entries(options.form)) if (v !== undefined) form.append(k, v);
      body = form.toString();
    } else if (options.body !== undefined) {
      body = options.body;
    }
    if (options.bearer !== undefined) headers.authorization = `Bearer ${options.bearer}`;
    for (const [name, value] of Object.entries(options.headers ?? {})) headers[name.toLowerCase()] = value;
    for (const [name, value] of Object.entries(headers)) {
      if (!HEADER_VALUE.test(value)) {
        const why = /[\ufffd]/.test(value) ? 'invalid UTF-8 (U+FFFD)' : /[\u0000-\u001f\u007f]/.test(value) ? 'a control character' : 'a character beyond Latin-1';
        throw new UnsendableRequestError(`cannot send ${method} ${this.url(options.path, options.query)}: its ${name} header would hold ${why}, which HTTP does not allow in a header — a credential the target issued that no client can send back`, name);
      }
    }

    const exchange: Exchange = {
      startedAt: new Date().toISOString(),
      durationMs: 0,
      request: { method, url, headers, ...(body !== undefined ? { body } : {}) },
    };
    const started = performance.now();
    const deadline = requestDeadline(this.#opts.timeoutMs, options.signal);
    try {
      const target = new URL(url);
      const res = await this.#pool.request({ origin: this.#origin, method: method as Dispatcher.HttpMethod, path: target.pathname + target.search, headers, body, signal: deadline.signal });
      const encoding = res.headers['content-encoding'];
      const read = await readBody(res.body, undefined, undefined, { contentEncoding: Array.isArray(encoding) ? encoding.join(',') : encoding });
      exchange.durationMs = round(performance.now() - started);
      const responseHeaders = flattenHeaders(res.headers);
      exchange.response = { status: res.statusCode, headers: responseHeaders, body: read.text, ...(read.truncated ? { truncatedFrom: read.bytes } : {}) };
      this.#emit(exchange);
      return makeResponse(exchange, res.statusCode, responseHeaders, read.text);
    } catch (err) {
      exchange.durationMs = round(performance.now() - started);
      // Our own deadlines say why in words; undici would only say "aborted".
      const cause = deadline.reason() ?? err;
      const code = (cause as { code?: string }).code ?? 'UNKNOWN';
      exchange.error = `${code}: ${(cause as Error).message}`;
      this.#emit(exchange);
      throw new TransportError(`no HTTP response for ${method} ${url}: ${exchange.error}`, code, exchange);
    } finally {
      deadline.dispose();
    }
  }

  #emit(exchange: Exchange): void {
    recordExchange(exchange);
    this.#opts.onExchange?.(exchange);
  }
}

function makeResponse(exchange: Exchange, status: number, headers: Record<string, string>, text: string): HttpResponse {
  let parsed: { value: unknown } | undefined;
  return {
    status,
    headers,
    text,
    durationMs: exchange.durationMs,
    exchange,
    header: (name) => headers[name.toLowerCase()],
    json<T>(): T | undefined {
      if (!parsed) {
        try {
          // A body nested deeper than a check reads is not parsed (jsonObject names its depth as a finding).
          parsed = { value: text.length && tooDeep(text) === undefined ? JSON.parse(text) : undefined };
        } catch {
          parsed = { value: undefined };
        }
      }
      return parsed.value as T | undefined;
    },
  };
}

function flattenHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function round(ms: number): number {
  return Math.round(ms * 100) / 100;
}
