/**
 * One HTTP request of the open model on an undici Pool, with the least work per request: `dispatch` with a
 * handler (no promise, no body stream), the body drained and ignored, and one callback when done.
 */
import type { Dispatcher } from 'undici';

/** The error code of a request cut at its total deadline (undici's own timeouts are idle timeouts). */
export const TOTAL_TIMEOUT = 'HARNESS_TOTAL_TIMEOUT';
/** The error code of a request cut because the run was interrupted (SIGINT/SIGTERM, abortOnFail). */
export const ABORTED = 'HARNESS_ABORTED';

/** How late undici's own headers/body timeouts may fire (its timers tick coarsely). */
const UNDICI_TIMER_SLACK_MS = 1000;

interface Abortable {
  abort(reason: Error): void;
}

/**
 * Total deadlines for requests in flight, and a way to cut them all. undici's headersTimeout and bodyTimeout are
 * idle timeouts: a body that drips one byte every 100 ms, or a chunked stream that never ends, keeps a request (and
 * the warm-up rounds and the graceful stop waiting on it) alive forever. One sweep every `tickMs` cuts what is
 * past its deadline, so a request ends within timeoutMs + 1 s + tickMs whatever the target does — one Map entry per
 * request instead of a timer each, on the open model's hot path.
 */
export class InFlight {
  readonly #due = new Map<Abortable, number>();
  #timer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(readonly tickMs = 100) {}

  add(controller: Abortable, timeoutMs: number): void {
    if (this.#closed) return controller.abort(codedError(ABORTED, 'the run was stopped'));
    // Past the timeout by undici's timer resolution (its timeouts fire up to about 1 s late): a request that stalls
    // outright is ended by undici's own timeout first and keeps its code (UND_ERR_HEADERS_TIMEOUT / _BODY_TIMEOUT);
    // this deadline catches what never idles (a drip, an endless body).
    this.#due.set(controller, performance.now() + timeoutMs + UNDICI_TIMER_SLACK_MS);
    this.#timer ??= setInterval(() => this.#sweep(), this.tickMs).unref();
  }

  delete(controller: Abortable): void {
    this.#due.delete(controller);
  }

  get size(): number {
    return this.#due.size;
  }

  /** Cuts every request in flight (and any started later): the run is over. */
  abortAll(): void {
    this.#closed = true;
    const all = [...this.#due.keys()];
    this.#due.clear();
    for (const controller of all) controller.abort(codedError(ABORTED, 'the run was stopped'));
    this.dispose();
  }

  dispose(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #sweep(): void {
    const now = performance.now();
    for (const [controller, due] of this.#due) {
      if (due > now) continue;
      this.#due.delete(controller);
      controller.abort(codedError(TOTAL_TIMEOUT, 'the request passed its total deadline'));
    }
  }
}

function codedError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

export interface SendOutcome {
  /** HTTP status, or 0 on a transport error. */
  status: number;
  /** Transport error code (ECONNRESET, UND_ERR_HEADERS_TIMEOUT …), when status is 0. */
  error?: string;
}

export interface SendRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export function errorCode(err: unknown): string {
  const e = err as { code?: unknown; name?: unknown; message?: unknown };
  if (typeof e?.code === 'string') return e.code;
  if (typeof e?.name === 'string' && e.name !== 'Error') return e.name;
  return typeof e?.message === 'string' ? e.message.slice(0, 60) : 'unknown';
}

export function send(dispatcher: Dispatcher, request: SendRequest, timeoutMs: number, done: (outcome: SendOutcome) => void, inFlight?: InFlight): void {
  let status = 0;
  let finished = false;
  let controller: Abortable | undefined;
  const finish = (outcome: SendOutcome): void => {
    if (finished) return;
    finished = true;
    if (controller) inFlight?.delete(controller);
    done(outcome);
  };
  try {
    dispatcher.dispatch(
      {
        method: request.method as Dispatcher.HttpMethod,
        path: request.path,
        headers: request.headers,
        ...(request.body !== undefined ? { body: request.body } : {}),
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      },
      {
        onRequestStart(c) {
          controller = c;
          inFlight?.add(c, timeoutMs);
        },
        onResponseStart(_controller, statusCode) {
          status = statusCode;
        },
        onResponseData() {},
        onResponseEnd() {
          finish({ status });
        },
        onResponseError(_controller, err) {
          finish({ status: 0, error: errorCode(err) });
        },
      },
    );
  } catch (err) {
    finish({ status: 0, error: errorCode(err) });
  }
}
