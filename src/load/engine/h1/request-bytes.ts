/**
 * A request as the bytes the load sender writes: request line, Host, the request's headers, Content-Length when it
 * has a body, then the body. A request whose path and body are constant is encoded once per run and the same
 * Buffer written every time (what wrk and autocannon do); a templated one is encoded per send.
 */
import { Buffer } from 'node:buffer';
import type { PreparedRequest } from '../../request-mix.ts';
import type { TemplateState } from '../../template.ts';

/** A header name or value that would split the request (CR, LF or NUL), or a method or path that is not a token. */
export class InvalidRequestError extends Error {
  readonly code = 'UND_ERR_INVALID_ARG';
}

const UNSAFE = /[\r\n\0]/;
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** The request's head and body as one string (UTF-8 on the wire). Throws InvalidRequestError. */
export function encodeRequest(method: string, path: string, host: string, headers: Readonly<Record<string, string>>, body: string | undefined): string {
  if (!TOKEN.test(method)) throw new InvalidRequestError(`invalid method ${JSON.stringify(method)}`);
  if (UNSAFE.test(path) || path.includes(' ') || path === '') throw new InvalidRequestError(`invalid request target ${JSON.stringify(path.slice(0, 80))}`);
  let lines = '';
  let hasHost = false;
  for (const name in headers) {
    const value = headers[name] as string;
    if (!TOKEN.test(name) || UNSAFE.test(value)) throw new InvalidRequestError(`invalid header ${JSON.stringify(name)}`);
    const lower = name.toLowerCase();
    // The sender frames the body itself and keeps the connection: these are its to set.
    if (lower === 'content-length' || lower === 'transfer-encoding' || lower === 'connection') continue;
    if (lower === 'host') hasHost = true;
    lines += `${name}: ${value}\r\n`;
  }
  // A POST, PUT or PATCH without a body still says so (RFC 9110 §8.6), as undici does.
  const length = body !== undefined ? `content-length: ${Buffer.byteLength(body)}\r\n` : BODY_METHODS.has(method) ? 'content-length: 0\r\n' : '';
  return `${method} ${path} HTTP/1.1\r\n${hasHost ? '' : `host: ${host}\r\n`}${lines}${length}\r\n${body ?? ''}`;
}

/**
 * Encodes the mix's requests for one sender: `prefix` is the base URL's path. Constant requests are encoded once
 * and kept (keyed by the PreparedRequest, so each credential's copy has its own bytes).
 */
export function requestEncoder(prefix: string, host: string, state: TemplateState): (request: PreparedRequest) => Buffer | string {
  const constant = new Map<PreparedRequest, Buffer>();
  return (r) => {
    const cached = constant.get(r);
    if (cached) return cached;
    const text = encodeRequest(r.method, prefix + r.path.render(state), host, r.headers, r.body?.render(state));
    if (!r.path.constant || (r.body !== undefined && !r.body.constant)) return text;
    const bytes = Buffer.from(text);
    constant.set(r, bytes);
    return bytes;
  };
}
