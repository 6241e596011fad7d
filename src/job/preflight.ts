/**
 * Before any check: does the target answer HTTP at all? Any status counts as an answer; only a transport
 * failure (refused, reset, timeout, DNS) makes the target unreachable (exit 3). The preflight has its own
 * deadline for the whole exchange (a target that accepts and never answers, or drips one byte at a time, is
 * unreachable after `deadlineMs`, not never), and an interruption (`signal`) stops it at once.
 */
import { TargetUnreachableError } from '../errors/harness-errors.ts';
import { TransportError, type HttpClient } from '../http/client.ts';
import { withAbortSignal } from '../http/deadline.ts';

export interface PreflightOptions {
  /** Longest the preflight may take, in ms. @default 10000 */
  deadlineMs?: number;
  /** An interruption (Ctrl-C): the preflight stops and rethrows the TransportError (code ABORTED). */
  signal?: AbortSignal;
}

export async function assertReachable(http: HttpClient, path: string, options: PreflightOptions = {}): Promise<void> {
  const deadlineMs = options.deadlineMs ?? 10_000;
  const deadline = AbortSignal.timeout(deadlineMs);
  try {
    await withAbortSignal(deadline, () => http.request({ method: 'GET', path, retryOn429: false, ...(options.signal ? { signal: options.signal } : {}) }));
  } catch (err) {
    if (options.signal?.aborted) throw err;
    if (err instanceof TransportError) {
      const detail = deadline.aborted ? `no complete answer within ${deadlineMs} ms (preflight deadline)` : (err.exchange.error ?? err.code);
      throw new TargetUnreachableError(http.baseUrl, detail, { cause: err });
    }
    throw err;
  }
}
