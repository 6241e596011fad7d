/**
 * Small HTTP plumbing for the spec-only target: body reading (JSON or form), answers in this target's own error
 * shape (`{"message", "field"?}` as application/json — SERVICE-SPEC §7: "the shape of error response bodies: not
 * shown"), and the Bearer credential (RFC 9110 §11.1: the scheme name is case-insensitive).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface Req {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  /** Parsed JSON or form body; `undefined` for none; `malformed` when it could not be parsed. */
  body: unknown;
  malformed: boolean;
  /** The client address (anonymous rate limiting). */
  address: string;
}

export const MAX_BODY_BYTES = 1_048_576;

export async function readRequest(incoming: IncomingMessage): Promise<Req | 'too-large'> {
  const url = new URL(incoming.url ?? '/', 'http://spec-target');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of incoming) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return 'too-large';
    chunks.push(chunk as Buffer);
  }
  const raw = Buffer.concat(chunks).toString('utf8');
  const type = (incoming.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  let body: unknown;
  let malformed = false;
  if (raw.length > 0) {
    if (type === 'application/x-www-form-urlencoded') body = Object.fromEntries(new URLSearchParams(raw));
    else if (type === 'application/json' || type.endsWith('+json')) {
      try {
        body = JSON.parse(raw);
      } catch {
        malformed = true;
      }
    } else malformed = true; // SERVICE-SPEC §4: "All request bodies are JSON"; anything else is a bad request here
  }
  return {
    method: incoming.method ?? 'GET',
    path: url.pathname,
    query: url.searchParams,
    headers: incoming.headers,
    body,
    malformed,
    address: incoming.socket.remoteAddress ?? 'unknown',
  };
}

export interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

export function send(res: ServerResponse, answer: Answer, extraHeaders: Record<string, string>): void {
  const headers: Record<string, string> = { ...extraHeaders, ...answer.headers };
  let payload = '';
  if (answer.body !== undefined) {
    payload = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
    headers['content-type'] ??= 'application/json; charset=utf-8';
    headers['x-content-type-options'] ??= 'nosniff';
  }
  headers['content-length'] = String(Buffer.byteLength(payload));
  res.writeHead(answer.status, headers);
  res.end(payload); // node sends no body for HEAD, as RFC 9110 §9.3.2 asks
}

export const error = (status: number, message: string, field?: string, headers?: Record<string, string>): Answer => ({
  status,
  ...(headers ? { headers } : {}),
  body: { message, ...(field ? { field } : {}) },
});

/** `Authorization: Bearer x` in any letter case; undefined when absent or another scheme. */
export function bearerOf(req: Req): string | undefined {
  const match = /^bearer +(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  return match?.[1];
}

export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
