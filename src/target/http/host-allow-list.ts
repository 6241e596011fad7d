/**
 * The target answers only the host names it serves (README "The browser sandbox", src/target/README.md "Threat model
 * of the sandbox"). A page on another origin can rebind its own DNS name to 127.0.0.1 after the browser loaded it:
 * its requests then reach this target as same-origin requests, but they carry that page's name in `Host`. Loopback
 * names (localhost and *.localhost, which browsers resolve to loopback themselves, 127.0.0.1, [::1]), the address
 * the target listens on and `reference.allowedHosts` are answered; any other Host gets 421 Misdirected Request
 * (RFC 9110 §15.5.20: "not able to produce a response for this authority") before anything else runs. A request with
 * no Host at all (HTTP/1.0) comes from no browser, and is answered.
 */
import type { FastifyInstance } from 'fastify';
import { ProblemError } from './problem.ts';

const LOOPBACK = ['localhost', '127.0.0.1', '::1'];

/** The host name of a Host header value, without port or IPv6 brackets, lower-cased. */
export function hostName(header: string): string {
  const value = header.trim().toLowerCase();
  if (value.startsWith('[')) return value.slice(1, value.indexOf(']') >>> 0 || value.length);
  const colon = value.lastIndexOf(':');
  return (colon >= 0 ? value.slice(0, colon) : value).replace(/\.$/, '');
}

/** Whether `header` names a host the target serves; `allowed` holds names as configured ("*": every host). */
export function isAllowedHost(header: string | undefined, allowed: readonly string[]): boolean {
  if (header === undefined || header === '') return true;
  if (allowed.includes('*')) return true;
  const name = hostName(header);
  if (LOOPBACK.includes(name) || name.endsWith('.localhost')) return true;
  return allowed.some((entry) => hostName(entry.includes(':') && !entry.startsWith('[') && entry.split(':').length > 2 ? `[${entry}]` : entry) === name);
}

export function installHostAllowList(app: FastifyInstance, allowed: readonly string[]): void {
  if (allowed.includes('*')) return;
  app.addHook('onRequest', async (request) => {
    const host = request.headers.host;
    if (!isAllowedHost(host, allowed)) {
      throw new ProblemError(421, 'host_not_allowed', {
        detail: `this target does not serve the host "${hostName(host ?? '')}"; add it to reference.allowedHosts to allow it`,
      });
    }
  });
}
