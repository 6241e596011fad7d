/**
 * What the harness records of each HTTP exchange. Checks never build evidence by hand: the client records every
 * exchange into the scope of the check that is running (AsyncLocalStorage), and a failing check's evidence is
 * what its scope holds — redacted and cut before anything is written.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

export interface RecordedResponse {
  status: number;
  headers: Record<string, string>;
  /** The body as text: only its first bytes (body-reader.ts) when `truncatedFrom` is set. */
  body: string;
  /** Bytes the target sent when more than were kept; the rest was counted and discarded. */
  truncatedFrom?: number;
}

export interface Exchange {
  startedAt: string;
  durationMs: number;
  request: RecordedRequest;
  response?: RecordedResponse;
  /** Transport failure (no HTTP response): e.g. "ECONNRESET: other side closed". */
  error?: string;
  /**
   * In evidence only: a curl command repeating the request, secrets as `$HARNESS_*` environment references
   * (src/http/curl.ts).
   */
  curl?: string;
}

/** Largest body kept in evidence; the rest is cut with a marker saying how much was dropped. */
export const EVIDENCE_BODY_LIMIT = 4096;

export function cutBody(body: string, limit = EVIDENCE_BODY_LIMIT, receivedBytes?: number): string {
  const note = receivedBytes !== undefined ? `; ${receivedBytes} bytes received in all, only the first ones were kept` : '';
  if (body.length <= limit) return note ? `${body}… [${note.slice(2)}]` : body;
  return `${body.slice(0, limit)}… [${body.length - limit} more characters cut${note}]`;
}

const scope = new AsyncLocalStorage<Exchange[]>();

/** Runs `fn` with a fresh exchange log; returns its result and every exchange made inside it. */
export async function withExchangeLog<T>(fn: () => Promise<T>): Promise<{ result: T; exchanges: Exchange[] }> {
  const log: Exchange[] = [];
  const result = await scope.run(log, fn);
  return { result, exchanges: log };
}

/** Same, for a function that may throw: the exchanges are handed to `onSettled` either way. */
export async function runRecorded<T>(fn: () => Promise<T>, onSettled: (exchanges: Exchange[]) => void): Promise<T> {
  const log: Exchange[] = [];
  try {
    return await scope.run(log, fn);
  } finally {
    onSettled(log);
  }
}

/** Runs `fn` recording into `log`, which the caller can read at any time (even before `fn` settles). */
export function recordInto<T>(log: Exchange[], fn: () => Promise<T>): Promise<T> {
  return scope.run(log, fn);
}

/**
 * Body characters one check's log holds whole. A check that sends hundreds of requests to a target answering
 * megabytes each would otherwise hold them all until it ends; past this, the oldest bodies are cut to what
 * evidence shows anyway (EVIDENCE_BODY_LIMIT) and marked truncated, so no later reader mistakes them for whole.
 */
export const LOG_BODY_BUDGET = 16 * 1024 * 1024;
const logBytes = new WeakMap<Exchange[], { held: number; oldestWhole: number }>();

export function recordExchange(exchange: Exchange): void {
  const log = scope.getStore();
  if (!log) return;
  log.push(exchange);
  const state = logBytes.get(log) ?? { held: 0, oldestWhole: 0 };
  state.held += exchange.response?.body.length ?? 0;
  while (state.held > LOG_BODY_BUDGET && state.oldestWhole < log.length - 1) {
    const response = log[state.oldestWhole++]!.response;
    if (!response || response.body.length <= EVIDENCE_BODY_LIMIT) continue;
    state.held -= response.body.length - EVIDENCE_BODY_LIMIT;
    response.truncatedFrom ??= Buffer.byteLength(response.body);
    response.body = response.body.slice(0, EVIDENCE_BODY_LIMIT);
  }
  logBytes.set(log, state);
}
