/**
 * Which webhook hosts this target registers: written for it, not shared with the reference target. It delivers
 * only to loopback anyway (deliveries.ts); registration refuses what would point into a network it runs in —
 * private, link-local (cloud metadata among them), unspecified and unique-local addresses, the same as IPv4-mapped
 * IPv6, and IPv4 not written as four decimal parts — so a caller learns at once that the URL is unusable.
 */
import { isIP } from 'node:net';

function v4Internal([a, b]: number[]): boolean {
  return a === 0 || a === 10 || (a === 172 && b! >= 16 && b! <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254) || (a === 100 && b! >= 64 && b! <= 127);
}

/** Why `url` (already parsed as http(s)) may not be registered, or undefined. `written` is the text the caller sent. */
export function refusedHost(url: URL, written: string): string | undefined {
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const writtenHost = /^[a-z]+:\/\/(?:[^@/]*@)?(\[[^\]]*\]|[^:/?#]*)/i.exec(written)?.[1]?.toLowerCase() ?? '';
  if (isIP(host) === 4) {
    if (writtenHost !== host) return 'an IPv4 host must be written as four decimal parts';
    const parts = host.split('.').map(Number);
    return parts[0] !== 127 && v4Internal(parts) ? 'the host is an internal address' : undefined;
  }
  if (isIP(host) === 6) {
    if (host === '::1') return undefined;
    const mapped = /^::ffff:(.+)$/.exec(host)?.[1];
    if (mapped !== undefined) return 'IPv4-mapped addresses are not accepted';
    if (host === '::' || /^f[cd]/.test(host) || /^fe[89ab]/.test(host)) return 'the host is an internal address';
  }
  return undefined;
}
