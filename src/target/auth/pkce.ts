/** PKCE (RFC 7636). Only S256 is supported: `plain` gives no protection against a leaked code. */
import { createHash } from 'node:crypto';
import { safeEqual } from './oauth-clients.ts';

/** code_verifier and code_challenge share this shape (RFC 7636 §4.1, §4.2: 43–128 unreserved characters). */
export const PKCE_VALUE = /^[A-Za-z0-9._~-]{43,128}$/;

export function s256(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

export function verifyPkce(verifier: string, challenge: string): boolean {
  return PKCE_VALUE.test(verifier) && safeEqual(s256(verifier), challenge);
}
