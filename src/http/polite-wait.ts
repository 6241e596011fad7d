/**
 * How the polite client waits out a 429 — and what it learns while doing so. A target's `Retry-After` is trusted
 * first; when a retry sent after it is throttled again with nothing of ours admitted in between (so no other
 * request of ours used the quota), the `Retry-After` proved wrong: the observation is recorded once for the
 * rate-limit checks to cite (their level, their finding), and from then on the client waits for the rate-limit
 * headers' reset or a bounded exponential back-off instead, so a lying `Retry-After` does not fail checks about
 * other rules. A request that still cannot get a non-429 answer raises `RateLimitedError` when the state asks for
 * it (conformance traffic): the runner reports that check as "not run: rate limited", never as a failure.
 *
 * The time a check spends waiting here is metered per check (AsyncLocalStorage), so the runner can extend the
 * check's deadline by it: time spent waiting for the target's quota is not the check's own time.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { parseRetryAfter } from './retry-after.ts';

/** What the polite client reads of a response's rate-limit headers (injected: src/http does not parse them). */
export interface LimitReading {
  quota?: number;
  windowS?: number;
  resetS?: number;
}

/** A `Retry-After` that proved wrong: the retry sent after it was throttled again. */
export interface RetryAfterLie {
  at: string;
  method: string;
  url: string;
  claimedS: number;
  /** Seconds actually waited before the retry that was throttled again. */
  waitedS: number;
}

/** Lies kept for the report: the first ones say all there is to say. */
const MAX_LIES = 10;

/** Run-wide state of the polite client: shared by every request of one run. */
export class PoliteState {
  /** Responses other than 429: a retry's 429 proves a lie only if none came in between. */
  admitted = 0;
  readonly lies: RetryAfterLie[] = [];
  /** Set once a Retry-After proved wrong: later waits no longer rely on it alone. */
  distrustRetryAfter = false;
  /** The last policy the headers announced with both quota and window. */
  announced?: { quota: number; windowS: number };
  /** Throw `RateLimitedError` instead of returning a 429 a polite request could not get past. */
  readonly throwWhenLimited: boolean;
  readonly readLimit: (headers: Record<string, string>) => LimitReading;

  constructor(options: { throwWhenLimited?: boolean; readLimit?: (headers: Record<string, string>) => LimitReading } = {}) {
    this.throwWhenLimited = options.throwWhenLimited ?? false;
    this.readLimit = options.readLimit ?? (() => ({}));
  }

  noteLie(lie: RetryAfterLie): void {
    this.distrustRetryAfter = true;
    if (this.lies.length < MAX_LIES) this.lies.push(lie);
  }
}

/** A polite request met only 429s within its waiting budget: the check could not run, the rule was not tested. */
export class RateLimitedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RateLimitedError';
  }
}

/** Per-check meter of time spent waiting for the target's quota. */
export interface WaitMeter {
  waitedMs: number;
  /** 429s met by polite requests in this check. */
  throttled: number;
}

const meterScope = new AsyncLocalStorage<WaitMeter>();

export function runMetered<T>(meter: WaitMeter, fn: () => Promise<T>): Promise<T> {
  return meterScope.run(meter, fn);
}

export interface PoliteOptions {
  state: PoliteState;
  sleep: (ms: number) => Promise<void>;
  /** Longest single wait, in seconds: a target asking for more is not waited for. */
  maxWaitSeconds: number;
  /** Retries while the target's Retry-After is trusted. */
  maxRetries: number;
  /** Retries once it is not (back-off needs more, shorter steps). */
  maxDistrustRetries?: number;
  /** Longest total wait for one request, in seconds. @default 30 */
  maxTotalWaitSeconds?: number;
}

interface Answer {
  status: number;
  header(name: string): string | undefined;
  headers: Record<string, string>;
}

/** Sends, and while the answer is 429 waits politely and sends again (bounded in retries and total time). */
export async function politeSend<R extends Answer>(send: () => Promise<R>, describe: { method: string; url: string }, options: PoliteOptions): Promise<R> {
  const { state } = options;
  const meter = meterScope.getStore();
  const maxTotalMs = (options.maxTotalWaitSeconds ?? 30) * 1000;
  let response = observeAnswer(await send(), state);
  let waitedMs = 0;
  let lastReason = '';
  for (let attempt = 0; response.status === 429; attempt++) {
    if (meter) meter.throttled += 1;
    const limit = attempt >= (state.distrustRetryAfter ? options.maxDistrustRetries ?? 6 : options.maxRetries);
    const claimedS = parseRetryAfter(response.header('retry-after'), Date.now());
    const resetS = state.readLimit(response.headers).resetS;
    // Trusted: what Retry-After says (1 s when absent). Distrusted: never less than it says, but at least the
    // reset the headers announce, else an exponential back-off (1, 2, 4 … s).
    const trusted = !state.distrustRetryAfter && claimedS !== undefined;
    const waitS = !trusted
      ? Math.max(claimedS ?? 0, resetS ?? 0, Math.min(options.maxWaitSeconds, 2 ** attempt))
      : claimedS!;
    if (limit || waitS > options.maxWaitSeconds || waitedMs + waitS * 1000 > maxTotalMs) {
      lastReason = limit
        ? `still 429 after ${attempt} polite retr${attempt === 1 ? 'y' : 'ies'} over ${Math.round(waitedMs / 100) / 10} s`
        : `the target asks for a ${waitS} s wait, more than the polite client waits (${options.maxWaitSeconds} s at once, ${maxTotalMs / 1000} s in all)`;
      break;
    }
    const admittedBefore = state.admitted;
    const ms = Math.max(waitS, 0) * 1000 + 50;
    await options.sleep(ms);
    waitedMs += ms;
    if (meter) meter.waitedMs += ms;
    response = observeAnswer(await send(), state);
    if (response.status === 429 && trusted && state.admitted === admittedBefore) {
      state.noteLie({ at: new Date().toISOString(), method: describe.method, url: describe.url, claimedS: claimedS!, waitedS: Math.round(ms / 100) / 10 });
    }
  }
  if (response.status === 429 && state.throwWhenLimited) {
    const announced = state.announced ? `; the target announces ${state.announced.quota} per ${state.announced.windowS} s` : '';
    throw new RateLimitedError(`${describe.method} ${describe.url} got no answer but 429: ${lastReason}${announced}`);
  }
  return response;
}

/** Counts an answer (admitted or not) and keeps the policy its headers announce. */
export function observeAnswer<R extends Pick<Answer, 'status' | 'headers'>>(response: R, state: PoliteState): R {
  if (response.status !== 429) state.admitted += 1;
  const reading = state.readLimit(response.headers);
  if (reading.quota !== undefined && reading.windowS !== undefined && reading.quota > 0 && reading.windowS > 0) {
    state.announced = { quota: reading.quota, windowS: reading.windowS };
  }
  return response;
}
