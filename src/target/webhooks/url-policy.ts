/**
 * Which webhook URLs the reference target accepts and delivers to (OWASP API7, server-side request forgery). A
 * target that POSTs wherever a caller says can be made to reach its cloud metadata service or a private network,
 * so the policy is an allow list:
 *   - loopback (127/8, ::1, `localhost` and `*.localhost`, which are never looked up: RFC 6761 §6.3) — the
 *     harness's own receiver listens on 127.0.0.1;
 *   - hosts named by `--webhook-allow` / `reference.webhooks.allow` (`host` or `host:port`);
 *   - special-use names that can never resolve (`.invalid`, `.test`, `.example`, RFC 6761; `.local`, `.onion`)
 *     are accepted at registration (conformance tools register such URLs to test validation) but never looked
 *     up: their deliveries fail at once.
 * Refused always, even when allow-listed by name: private (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7),
 * link-local (169.254/16, fe80::/10), metadata (169.254.169.254, fd00:ec2::254, metadata.google.internal),
 * unspecified (0.0.0.0/8, ::), multicast and reserved addresses — also as IPv4-mapped or NAT64 IPv6 — unless the
 * address itself is on the allow list; and an IPv4 host not written in dotted-decimal (`2130706433`, `0x7f.1`,
 * `0177.0.0.1`), which only an attempt to get past a filter would write.
 * Registration checks the URL; delivery checks it again and, for an allow-listed name, checks every address the
 * name resolves to and connects to the address it checked (safe-lookup.ts).
 */
import { classifyAddress, type AddressClass } from './address-class.ts';

export type UrlDecision =
  | { ok: true; kind: 'address' | 'loopback-name' | 'name'; host: string; port: number }
  | { ok: true; kind: 'special-use'; host: string; port: number }
  | { ok: false; reason: string };

const NEVER_RESOLVED = ['invalid', 'test', 'example', 'local', 'onion'];
const METADATA_NAMES = new Set(['metadata.google.internal', 'metadata', 'instance-data', 'metadata.azure.internal']);

interface AllowEntry {
  host: string;
  /** undefined: any port. */
  port?: number;
}

export class WebhookUrlPolicy {
  readonly #allow: AllowEntry[];

  /** `allow`: `host` or `host:port` entries (`[v6]:port` for IPv6); throws on an entry that is not one. */
  constructor(allow: readonly string[] = []) {
    this.#allow = allow.map(parseAllowEntry);
  }

  get allowList(): readonly string[] {
    return this.#allow.map((e) => (e.port === undefined ? e.host : `${e.host.includes(':') ? `[${e.host}]` : e.host}:${e.port}`));
  }

  /** The decision for a URL, at registration and again before every delivery attempt. */
  check(raw: string): UrlDecision {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return { ok: false, reason: 'is not a URL' };
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, reason: `scheme ${url.protocol} is not http or https` };
    const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase().replace(/\.$/, '');
    const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
    const written = rawHost(raw);
    const cls = classifyAddress(host);
    if (cls !== undefined) {
      // The URL parser turns 2130706433, 0x7f000001 and 0177.0.0.1 into 127.0.0.1: judge what was written.
      if (!host.includes(':') && written !== host) return { ok: false, reason: `host "${written}" is an IPv4 address not written in dotted-decimal form` };
      return this.#allowedAddress(host, cls, port) ? { ok: true, kind: 'address', host, port } : { ok: false, reason: refusal(host, cls) };
    }
    if (METADATA_NAMES.has(host)) return { ok: false, reason: `host ${host} is a cloud metadata service` };
    if (host === 'localhost' || host.endsWith('.localhost')) return { ok: true, kind: 'loopback-name', host, port };
    if (isNeverResolved(host)) return { ok: true, kind: 'special-use', host, port };
    if (this.#listed(host, port)) return { ok: true, kind: 'name', host, port };
    return { ok: false, reason: `host ${host}${url.port ? `:${port}` : ''} is not on the webhook allow list (loopback, --webhook-allow)` };
  }

  /** Whether a resolved (or literal) address may be connected to; the reason when not. */
  checkResolved(address: string): string | undefined {
    const cls = classifyAddress(address);
    if (cls === undefined) return `${address} is not an IP address`;
    if (cls === 'public' || cls === 'loopback' || this.#listed(address, undefined)) return undefined;
    return refusal(address, cls);
  }

  #allowedAddress(host: string, cls: AddressClass, port: number): boolean {
    return cls === 'loopback' || this.#listed(host, port);
  }

  #listed(host: string, port: number | undefined): boolean {
    return this.#allow.some((e) => e.host === host && (e.port === undefined || port === undefined || e.port === port));
  }
}

function refusal(host: string, cls: AddressClass): string {
  return cls === 'public' ? `address ${host} is not on the webhook allow list (loopback, --webhook-allow)` : `address ${host} is ${cls === 'unspecified' || cls === 'reserved' ? 'an' : 'a'} ${cls} address`;
}

function isNeverResolved(host: string): boolean {
  const last = host.slice(host.lastIndexOf('.') + 1);
  return NEVER_RESOLVED.includes(last);
}

/** The host as the caller wrote it (lower-cased, without brackets, port or trailing dot). */
function rawHost(raw: string): string {
  const match = /^[a-z][a-z0-9+.-]*:\/*(?:[^@/?#\\]*@)?(\[[^\]]*\]|[^:/?#\\]*)/i.exec(raw.trim());
  return (match?.[1] ?? '').replace(/^\[|\]$/g, '').toLowerCase().replace(/\.$/, '');
}

function parseAllowEntry(entry: string): AllowEntry {
  let url: URL;
  try {
    url = new URL(`http://${entry.trim()}`);
  } catch {
    throw new Error(`webhook allow-list entry "${entry}" is not host or host:port`);
  }
  if (url.pathname !== '/' || url.search || url.username || !url.hostname) throw new Error(`webhook allow-list entry "${entry}" is not host or host:port`);
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase().replace(/\.$/, '');
  return { host, ...(url.port ? { port: Number(url.port) } : /:\d+$/.test(entry.trim()) ? { port: 80 } : {}) };
}
