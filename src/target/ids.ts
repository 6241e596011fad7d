/** Identifier and secret generation, in one place so formats stay consistent. */
import { randomBytes } from 'node:crypto';

/** Random hex secret, e.g. for API keys: `sk_live_<48 hex>`. */
export function randomToken(prefix: string, bytes = 24): string {
  return `${prefix}${randomBytes(bytes).toString('hex')}`;
}

let counter = 0;

/**
 * Resource id: prefix + creation time (base36, fixed width) + a process-wide counter + randomness. The time and
 * counter parts make ids of one process sort by creation, which keeps list order stable for equal timestamps.
 */
export function resourceId(prefix: string, nowMs: number): string {
  counter = (counter + 1) % 36 ** 4;
  const time = Math.max(0, Math.floor(nowMs)).toString(36).padStart(9, '0');
  return `${prefix}_${time}${counter.toString(36).padStart(4, '0')}${randomBytes(4).toString('hex')}`;
}

/** ISO 8601 UTC with milliseconds and `Z`. */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}
