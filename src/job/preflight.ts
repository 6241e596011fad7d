/**
 * Before any check: does the target answer HTTP at all? Any status counts as an answer; only a transport
 * failure (refused, reset, timeout, DNS) makes the target unreachable (exit 3). The preflight has its own
 * deadline for the whole exchange (a target that accepts and never answers, or drips one byte at a time, is
 * unreachable after `deadlineMs`, not never), and an interruption (`signal`) stops it at once. A timed-out
 * preflight says "no complete answer within N ms" whichever timer fired (docs/errors.md).
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
      // Three timers bound the same exchange by the same length: this deadline, the request's own total deadline
      // and undici's idle timeouts. Which fires first is the machine's scheduling, not the target's doing, so the
      // words are the same for each; the code in brackets says which one it was.
      const timedOut = deadline.aborted || TIMEOUT_CODES.has(err.code);
      const detail = timedOut
        ? `no complete answer within ${deadlineMs} ms (target.timeoutMs; ${deadline.aborted ? 'preflight deadline' : err.code})`
        : (err.exchange.error ?? err.code);
      throw new TargetUnreachableError(http.baseUrl, detail, { cause: err });
    }
    throw err;
  }
}

/** Transport error codes of a timer that bounds the exchange (src/http/deadline.ts, undici's idle timeouts). */
const TIMEOUT_CODES: ReadonlySet<string> = new Set(['REQUEST_DEADLINE', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);
