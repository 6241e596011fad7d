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
  body: string;
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

export function cutBody(body: string, limit = EVIDENCE_BODY_LIMIT): string {
  if (body.length <= limit) return body;
  return `${body.slice(0, limit)}… [${body.length - limit} more characters cut]`;
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

export function recordExchange(exchange: Exchange): void {
  scope.getStore()?.push(exchange);
}
