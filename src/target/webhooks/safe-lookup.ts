/**
 * The DNS step of a webhook delivery, with the policy inside it: the name is resolved once, every address is
 * checked (url-policy.ts), and the connection goes to the address that was checked — a name that resolves to a
 * public address at registration and to 169.254.169.254 at delivery (DNS rebinding) gets nothing. Plugged into
 * undici's connector as `lookup`, which Node's `net.connect` calls for host names only (literal addresses were
 * checked before the request).
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import type { WebhookUrlPolicy } from './url-policy.ts';

export class WebhookAddressRefused extends Error {
  readonly code = 'WEBHOOK_ADDRESS_REFUSED';
}

/** dns.lookup with `all: true`; tests pass their own to play a name that resolves to a refused address. */
export type Resolve = (host: string, callback: (err: Error | null, addresses: LookupAddress[]) => void) => void;

const systemResolve: Resolve = (host, callback) => dnsLookup(host, { all: true, verbatim: true }, callback);

export function policyLookup(policy: WebhookUrlPolicy, resolve: Resolve = systemResolve): LookupFunction {
  return ((hostname: string, options: { all?: boolean; family?: number | string }, callback: (...args: unknown[]) => void) => {
    const host = hostname.replace(/^\[|\]$/g, '').toLowerCase().replace(/\.$/, '');
    // `localhost` names are loopback by definition (RFC 6761 §6.3): no lookup, no chance of a rewritten hosts file.
    if (host === 'localhost' || host.endsWith('.localhost')) return answer([{ address: '127.0.0.1', family: 4 }]);
    resolve(host, (err, addresses) => {
      if (err) return callback(err);
      for (const { address } of addresses) {
        const reason = policy.checkResolved(address);
        if (reason) return callback(new WebhookAddressRefused(`webhook host ${host} resolves to a refused address: ${reason}`));
      }
      if (addresses.length === 0) return callback(new WebhookAddressRefused(`webhook host ${host} resolves to no address`));
      answer(addresses);
    });

    function answer(addresses: LookupAddress[]): void {
      if (options?.all) callback(null, addresses);
      else callback(null, addresses[0]!.address, addresses[0]!.family);
    }
  }) as unknown as LookupFunction;
}
