/**
 * Reading and forging compact JWS tokens (RFC 7515 §7.1) for the JWT checks. The harness never holds the
 * target's key: every token built here is one a correct target must refuse (a changed payload under the old
 * signature, a broken signature, an unsigned `alg: none` token).
 */

export interface JwsParts {
  header: Record<string, unknown>;
  claims: Record<string, unknown>;
  /** The three base64url segments as received. */
  segments: [string, string, string];
}

/** The parts of a compact JWS, or undefined when the token is not one (e.g. a JWE or an opaque string). */
export function parseJws(token: string): JwsParts | undefined {
  const segments = token.split('.');
  if (segments.length !== 3) return undefined;
  const header = decodeSegment(segments[0]!);
  const claims = decodeSegment(segments[1]!);
  if (!header || !claims) return undefined;
  return { header, claims, segments: segments as [string, string, string] };
}

/** A JSON object from one base64url segment, or undefined. */
export function decodeSegment(segment: string): Record<string, unknown> | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(segment)) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export function encodeSegment(value: unknown): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
}

/** The same header and signature over a payload with changed claims: the signature no longer matches. */
export function withChangedClaims(parts: JwsParts, change: Record<string, unknown>): string {
  return [parts.segments[0], encodeSegment({ ...parts.claims, ...change }), parts.segments[2]].join('.');
}

/**
 * The same header and payload with a different signature. The first character is changed, not the last: the
 * last base64url character of a signature partly encodes padding bits, so changing it may decode to the same bytes.
 */
export function withBrokenSignature(parts: JwsParts): string {
  const signature = parts.segments[2];
  const first = signature[0] === 'A' ? 'B' : 'A';
  const broken = signature.length > 0 ? first + signature.slice(1) : 'AAAA';
  return [parts.segments[0], parts.segments[1], broken].join('.');
}

/** An Unsecured JWS (RFC 7515 Appendix A.5): header `{"alg":"none"}`, the same claims, an empty signature. */
export function unsecuredCopy(parts: JwsParts): string {
  const header: Record<string, unknown> = { ...parts.header, alg: 'none' };
  delete header.kid;
  return `${encodeSegment(header)}.${parts.segments[1]}.`;
}

