/**
 * Warm start: before t0, the connections the scenario will need are opened and the request path (ours: undici
 * or autocannon, JIT, first allocations; the target's: routes, validators, its own JIT) is exercised with the
 * scenario's own requests, so the first second of the run measures the target like any other second. Two rounds
 * of one request per connection (one round when the first already failed), each request given at most 2 s: a
 * target that never answers costs the warm-up 2 s, not the scenario's timeout twice. Nothing here is recorded
 * in the run's metrics; the caller reports the WarmUp beside them.
 */
import autocannon from 'autocannon';
import type { Dispatcher } from 'undici';
import type { WarmUp } from '../result.ts';
import type { Clock } from '../pacer/clock.ts';
import { send, type SendOutcome, type SendRequest } from './http-sender.ts';

const ROUNDS = 2;
const MAX_REQUEST_MS = 2000;

const elapsed = (clock: Clock, start: number): number => Math.round((clock.now() - start) * 10) / 10;

/** Open model: `connections` requests at once on the pool (pipelining 1), so the pool opens that many. */
export async function warmUpPool(pool: Dispatcher, connections: number, next: () => SendRequest, timeoutMs: number, clock: Clock): Promise<WarmUp> {
  const start = clock.now();
  let requests = 0;
  let errors = 0;
  for (let round = 0; round < ROUNDS && connections > 0; round++) {
    const outcomes = await Promise.all(
      Array.from({ length: connections }, () => new Promise<SendOutcome>((resolve) => send(pool, next(), Math.min(timeoutMs, MAX_REQUEST_MS), resolve))),
    );
    requests += outcomes.length;
    const failed = outcomes.filter((o) => o.status === 0).length;
    errors += failed;
    if (failed > 0) break;
  }
  return { durationMs: elapsed(clock, start), requests, errors, connections };
}

/**
 * Closed model: a short autocannon run with the scenario's VUs and requests. autocannon opens a fresh set of
 * connections per instance, so these warm the path (both sides' code and the target's listeners) rather than
 * hand over sockets; on loopback a connect is a few tens of microseconds.
 */
export function warmUpAutocannon(options: autocannon.Options & { connections: number }, clock: Clock): Promise<WarmUp> {
  const start = clock.now();
  let requests = 0;
  let errors = 0;
  return new Promise((resolve) => {
    const instance = autocannon({ ...options, amount: options.connections * ROUNDS, timeout: Math.min(options.timeout ?? 10, MAX_REQUEST_MS / 1000) }, () => {
      clearTimeout(cap);
      resolve({ durationMs: elapsed(clock, start), requests, errors, connections: options.connections });
    });
    instance.on('response', () => requests++);
    instance.on('reqError', () => {
      requests++;
      errors++;
    });
    const cap = setTimeout(() => instance.stop(), ROUNDS * MAX_REQUEST_MS + 1000);
  });
}
