/**
 * What kind of address an IP is, for the webhook URL policy (url-policy.ts). Written out by hand rather than
 * with `net.BlockList` because IPv4-mapped (`::ffff:a9fe:a9fe`) and NAT64 (`64:ff9b::/96`) IPv6 forms must be
 * judged by the IPv4 address they carry — the classic way past an IPv4-only filter.
 */
import { isIPv4, isIPv6 } from 'node:net';

export type AddressClass = 'loopback' | 'private' | 'link-local' | 'metadata' | 'unspecified' | 'multicast' | 'reserved' | 'public';

/** Cloud metadata endpoints (AWS, GCP, Azure, OpenStack: 169.254.169.254; AWS IPv6: fd00:ec2::254; Alibaba). */
const METADATA_V4 = new Set(['169.254.169.254', '169.254.170.2', '100.100.100.200']);
const METADATA_V6 = 'fd00:ec2:0:0:0:0:0:254';

export function classifyAddress(address: string): AddressClass | undefined {
  if (isIPv4(address)) return classifyV4(address.split('.').map(Number));
  if (isIPv6(address)) return classifyV6(address);
  return undefined;
}

function classifyV4([a, b, c, d]: number[]): AddressClass {
  const text = `${a}.${b}.${c}.${d}`;
  if (METADATA_V4.has(text)) return 'metadata';
  if (a === 127) return 'loopback';
  if (a === 0) return 'unspecified';
  if (a === 10 || (a === 172 && b! >= 16 && b! <= 31) || (a === 192 && b === 168) || (a === 100 && b! >= 64 && b! <= 127)) return 'private';
  if (a === 169 && b === 254) return 'link-local';
  if (a! >= 224 && a! <= 239) return 'multicast';
  if (a! >= 240 || (a === 192 && b === 0 && c === 0) || (a === 198 && (b === 18 || b === 19))) return 'reserved';
  return 'public';
}

function classifyV6(address: string): AddressClass {
  const words = expandV6(address);
  if (!words) return 'reserved';
  if (words.join(':') === METADATA_V6) return 'metadata';
  const n = words.map((w) => parseInt(w, 16));
  const allZero = (from: number, to: number) => n.slice(from, to).every((x) => x === 0);
  if (allZero(0, 8)) return 'unspecified';
  if (allZero(0, 7) && n[7] === 1) return 'loopback';
  // IPv4-mapped ::ffff:a.b.c.d, IPv4-compatible ::a.b.c.d, NAT64 64:ff9b::a.b.c.d: judge the IPv4 inside.
  if ((allZero(0, 5) && (n[5] === 0xffff || n[5] === 0)) || (n[0] === 0x64 && n[1] === 0xff9b && allZero(2, 6))) {
    return classifyV4([n[6]! >> 8, n[6]! & 0xff, n[7]! >> 8, n[7]! & 0xff]);
  }
  if ((n[0]! & 0xfe00) === 0xfc00) return 'private'; // fc00::/7 unique local
  if ((n[0]! & 0xffc0) === 0xfe80) return 'link-local'; // fe80::/10
  if ((n[0]! & 0xff00) === 0xff00) return 'multicast';
  if (n[0] === 0x2001 && n[1] === 0xdb8) return 'reserved'; // documentation
  return 'public';
}

/** Eight 16-bit words as lower-case hex without leading zeros, or undefined when `address` is not IPv6. */
function expandV6(address: string): string[] | undefined {
  let text = address.toLowerCase().replace(/%.*$/, '');
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4[1]!.split('.').map(Number);
    text = `${text.slice(0, v4.index)}${((a! << 8) | b!).toString(16)}:${((c! << 8) | d!).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const missing = 8 - left.length - right.length;
  if (tail === undefined ? left.length !== 8 : missing < 0) return undefined;
  return [...left, ...Array<string>(tail === undefined ? 0 : missing).fill('0'), ...right].map((w) => parseInt(w, 16).toString(16));
}
