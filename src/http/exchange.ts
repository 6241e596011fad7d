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
  return `${copyPrefix(body, limit)}… [${body.length - limit} more characters cut${note}]`;
}

/**
 * The first `limit` characters of `text` as a string of their own. `String.slice` (and a template literal around
 * it) returns a view that keeps the whole original alive in V8: a 4 KiB cut of a 1 MiB two-byte body pinned 2 MiB,
 * and the traffic log held thousands of them (4.2 GB, out of memory). A round trip through a Buffer copies; a
 * surrogate pair is never split.
 */
export function copyPrefix(text: string, limit: number): string {
  if (text.length <= limit) return text;
  let end = limit;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  const part = text.slice(0, end);
  // Latin-1 text stays a one-byte string; anything else is copied as UTF-16 code units (lone surrogates included).
  return /^[\x00-\xff]*$/.test(part) ? Buffer.from(part, 'latin1').toString('latin1') : Buffer.from(part, 'utf16le').toString('utf16le');
}

/**
 * Bytes a string may occupy in memory, an upper bound: its UTF-8 length (V8 holds one or two bytes per UTF-16 code
 * unit; UTF-8 spends at least as many). A body's characters undercount a two-byte string by half.
 */
export function heldBytes(text: string | undefined): number {
  return text === undefined ? 0 : Buffer.byteLength(text, 'utf8');
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
 * Body bytes (UTF-8, heldBytes) one check's log holds whole. A check that sends hundreds of requests to a target answering
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
  state.held += heldBytes(exchange.response?.body);
  while (state.held > LOG_BODY_BUDGET && state.oldestWhole < log.length - 1) {
    const response = log[state.oldestWhole++]!.response;
    if (!response || response.body.length <= EVIDENCE_BODY_LIMIT) continue;
    const before = heldBytes(response.body);
    response.truncatedFrom ??= before;
    // A copy, not a slice: the slice would keep the whole body alive (copyPrefix).
    response.body = copyPrefix(response.body, EVIDENCE_BODY_LIMIT);
    state.held -= before - heldBytes(response.body);
  }
  logBytes.set(log, state);
}
