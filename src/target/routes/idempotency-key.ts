/**
 * The Idempotency-Key request header (draft-ietf-httpapi-idempotency-key-header): a Structured Field string,
 * so `"abc"` is the canonical form; a bare token is accepted too because most clients send one.
 */
import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { ProblemError } from '../http/problem.ts';

const VALUE = /^[\x21-\x7e]{1,255}$/;

/** The key, undefined when absent; 400 when present but empty, too long or not printable ASCII. */
export function readIdempotencyKey(request: FastifyRequest): string | undefined {
  const raw = request.headers['idempotency-key'];
  if (raw === undefined) return undefined;
  const value = Array.isArray(raw) ? undefined : unquote(raw.trim());
  if (value === undefined || !VALUE.test(value)) {
    throw new ProblemError(400, 'invalid_idempotency_key', {
      detail: 'Idempotency-Key must be sent once, with 1-255 printable ASCII characters.',
    });
  }
  return value;
}

function unquote(value: string): string {
  return value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value;
}

/** Fingerprint of a JSON body that ignores key order and whitespace: "the same body" means the same JSON value. */
export function fingerprint(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body)).digest('base64url');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
