/** Identifier and secret generation, in one place so formats stay consistent. */
import { randomBytes, randomFillSync } from 'node:crypto';

/** Random hex secret, e.g. for API keys: `sk_live_<48 hex>`. Not pooled: secrets take fresh bytes each time. */
export function randomToken(prefix: string, bytes = 24): string {
  return `${prefix}${randomBytes(bytes).toString('hex')}`;
}

/**
 * Non-secret randomness (resource and request ids) is taken from a pooled buffer: one getrandom call per 8 KiB
 * instead of one per id, which was the single largest cost of the send path under load (bench/reference-target).
 */
const POOL = Buffer.alloc(8192);
let poolOffset = POOL.length;

export function randomHex(bytes: number): string {
  if (poolOffset + bytes > POOL.length) {
    randomFillSync(POOL);
    poolOffset = 0;
  }
  const hex = POOL.toString('hex', poolOffset, poolOffset + bytes);
  poolOffset += bytes;
  return hex;
}

let counter = 0;

/**
 * Resource id: prefix + creation time (base36, fixed width) + a process-wide counter + randomness. The time and
 * counter parts make ids of one process sort by creation, which keeps list order stable for equal timestamps.
 */
export function resourceId(prefix: string, nowMs: number): string {
  counter = (counter + 1) % 36 ** 4;
  const time = Math.max(0, Math.floor(nowMs)).toString(36).padStart(9, '0');
  return `${prefix}_${time}${counter.toString(36).padStart(4, '0')}${randomHex(4)}`;
}

let lastMs = Number.NaN;
let lastIso = '';

/** ISO 8601 UTC with milliseconds and `Z`. Memoised for the last millisecond: under load many sends share one. */
export function isoTime(ms: number): string {
  if (ms !== lastMs) {
    lastIso = new Date(ms).toISOString();
    lastMs = ms;
  }
  return lastIso;
}
