/**
 * One HTTP request of the open model on an undici Pool, with the least work per request: `dispatch` with a
 * handler (no promise, no body stream), the body drained and ignored, and one callback when done.
 */
import type { Dispatcher } from 'undici';

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

export function send(dispatcher: Dispatcher, request: SendRequest, timeoutMs: number, done: (outcome: SendOutcome) => void): void {
  let status = 0;
  let finished = false;
  const finish = (outcome: SendOutcome): void => {
    if (finished) return;
    finished = true;
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
        onRequestStart() {},
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
