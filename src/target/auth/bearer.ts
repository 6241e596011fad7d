/**
 * Reads `Authorization: Bearer <token>` (RFC 6750 §2.1). The scheme is case-insensitive (RFC 9110 §11.1).
 * Other schemes (e.g. Basic on the token endpoint) are "no Bearer credential", not an invalid one.
 */
export type BearerResult = { kind: 'none' } | { kind: 'bearer'; token: string } | { kind: 'malformed' };

const TOKEN68 = /^[A-Za-z0-9\-._~+/]+=*$/;

export function parseBearer(header: string | undefined): BearerResult {
  if (header === undefined) return { kind: 'none' };
  const match = /^([A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*)(?: +(.*))?$/.exec(header.trim());
  if (!match || match[1]!.toLowerCase() !== 'bearer') return match ? { kind: 'none' } : { kind: 'malformed' };
  const token = match[2]?.trim();
  if (!token || !TOKEN68.test(token)) return { kind: 'malformed' };
  return { kind: 'bearer', token };
}
