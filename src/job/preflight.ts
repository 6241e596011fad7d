/**
 * Before any check: does the target answer HTTP at all? Any status counts as an answer; only a transport
 * failure (refused, reset, timeout, DNS) makes the target unreachable (exit 3).
 */
import { TargetUnreachableError } from '../errors.ts';
import { TransportError, type HttpClient } from '../http/client.ts';

export async function assertReachable(http: HttpClient, path: string): Promise<void> {
  try {
    await http.request({ method: 'GET', path, retryOn429: false });
  } catch (err) {
    if (err instanceof TransportError) throw new TargetUnreachableError(http.baseUrl, err.exchange.error ?? err.code, { cause: err });
    throw err;
  }
}
