/**
 * The client init observes the target with: the conformance client (429 and Retry-After waited out politely),
 * held to a budget of requests and time so init stays cheap against a small quota. Every answer is described in
 * words for the evidence comments — method, path and status, never a header or a credential.
 */
import { HttpClient, TransportError, type HttpResponse, type RequestOptions } from '../http/client.ts';
import { TargetUnreachableError } from '../errors/harness-errors.ts';

/** Each API operation's path on the target, by operation name (from the document, or PROFILE's defaults). */
export interface Paths {
  [operation: string]: string;
}

export const MAX_REQUESTS = 60;
export const MAX_SECONDS = 60;

export class BudgetSpent extends Error {}

export interface Seen {
  res: HttpResponse;
  /** `POST /v1/whatsapp/messages answered 201`. */
  said: string;
}

export class ProbeClient {
  readonly #client: HttpClient;
  readonly #deadline: number;
  #sent = 0;
  #answered = false;
  /** Headers of every answer to an authenticated request (for the rate-limit window, read over all of them). */
  readonly authenticatedHeaders: Array<Record<string, string>> = [];

  constructor(readonly baseUrl: string, timeoutMs: number, readonly maxRequests = MAX_REQUESTS, maxSeconds = MAX_SECONDS) {
    this.#client = new HttpClient({ baseUrl, timeoutMs, connections: 2, retryOn429: true, maxRetryAfterSeconds: 10, max429Retries: 3 });
    this.#deadline = Date.now() + maxSeconds * 1000;
  }

  /** Milliseconds left of the time budget. */
  remainingMs(): number {
    return Math.max(0, this.#deadline - Date.now());
  }

  get sent(): number {
    return this.#sent;
  }

  async send(options: RequestOptions): Promise<Seen> {
    if (this.#sent >= this.maxRequests) throw new BudgetSpent(`request budget of ${this.maxRequests} spent`);
    if (Date.now() >= this.#deadline) throw new BudgetSpent('time budget spent');
    this.#sent++;
    const remainingMs = Math.max(1, this.#deadline - Date.now());
    const signal = AbortSignal.timeout(remainingMs);
    try {
      const res = await this.#client.request({ ...options, signal });
      this.#answered = true;
      if (options.bearer !== undefined) this.authenticatedHeaders.push(res.headers);
      const shown = options.path.replace(/([?&](?:cursor|after|page_token|pageToken|starting_after|next|token|continuation)=)[^&]*/g, '$1…');
      return { res, said: `${(options.method ?? 'GET').toUpperCase()} ${shown} answered ${res.status}` };
    } catch (err) {
      if (err instanceof TransportError) {
        if (!this.#answered) throw new TargetUnreachableError(this.baseUrl, `${err.message} (no configuration written)`);
        throw new BudgetSpent(`the target stopped answering: ${err.message}`);
      }
      if (signal.aborted) throw new BudgetSpent('time budget spent');
      throw err;
    }
  }

  close(): Promise<void> {
    return this.#client.close();
  }
}

export function isSuccess(status: number): boolean {
  return status >= 200 && status < 400;
}
