/**
 * Deadlines that actually stop requests. A check's deadline is an AbortSignal the runner puts in scope
 * (AsyncLocalStorage), so every request the check makes — however deep in shared helpers — is aborted when the
 * check runs out of time, instead of running on (and holding the connection pool) after the check was given up.
 * Each request also gets a total deadline: undici's headersTimeout/bodyTimeout are idle timeouts, so a target
 * that drips one byte every 100 ms would otherwise never time out.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const scope = new AsyncLocalStorage<AbortSignal>();

/** Runs `fn` with `signal` as the deadline of every request made inside it. */
export function withAbortSignal<T>(signal: AbortSignal, fn: () => Promise<T>): Promise<T> {
  return scope.run(signal, fn);
}

/** The deadline of the work in scope (a check, a preflight), if any. */
export function scopeSignal(): AbortSignal | undefined {
  return scope.getStore();
}

/** Why a request was aborted, as the exchange records it. */
export class DeadlineExceeded extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
    this.name = 'DeadlineExceeded';
  }
}

export interface RequestDeadline {
  signal: AbortSignal;
  /** The reason once aborted: our own total deadline, or the scope's (check deadline, interruption). */
  reason(): DeadlineExceeded | undefined;
  dispose(): void;
}

/**
 * One request's signal: aborted after `totalMs`, or as soon as the scope's signal (or `extra`) aborts.
 * `dispose()` clears the timer and the listeners, so nothing outlives the request.
 */
export function requestDeadline(totalMs: number, ...outer: Array<AbortSignal | undefined>): RequestDeadline {
  const controller = new AbortController();
  let why: DeadlineExceeded | undefined;
  const abort = (reason: DeadlineExceeded): void => {
    if (controller.signal.aborted) return;
    why = reason;
    controller.abort(reason);
  };
  const timer = setTimeout(() => abort(new DeadlineExceeded(`no complete response within ${totalMs} ms (target.timeoutMs)`, 'REQUEST_DEADLINE')), totalMs);
  const sources = [scopeSignal(), ...outer].filter((s): s is AbortSignal => s !== undefined);
  const onOuter = (): void => abort(new DeadlineExceeded('request aborted: the check ran out of time or the run was stopped', 'ABORTED'));
  for (const source of sources) {
    if (source.aborted) onOuter();
    else source.addEventListener('abort', onOuter, { once: true });
  }
  return {
    signal: controller.signal,
    reason: () => why,
    dispose() {
      clearTimeout(timer);
      for (const source of sources) source.removeEventListener('abort', onOuter);
    },
  };
}
