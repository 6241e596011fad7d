/**
 * User JWTs (PROFILE.md: a JWS with sub, iat, exp, iss, aud; the reference signs HS256 with a per-start key).
 * Verification pins the algorithm, so `alg: none` and algorithm-confusion tokens are refused by jose itself.
 */
import { randomBytes } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';

export const JWT_ISSUER = 'https://api-harness.example/reference-target';
export const JWT_AUDIENCE = 'https://api-harness.example/api';
const ALG = 'HS256';

export interface IssuedJwt {
  token: string;
  expiresIn: number;
}

export class JwtService {
  readonly #key: Uint8Array;

  /** @param key HMAC key; random per instance unless a test needs to forge tokens with it. */
  constructor(
    private readonly ttlSeconds: number,
    private readonly now: () => number,
    key: Uint8Array = new Uint8Array(randomBytes(32)),
  ) {
    this.#key = key;
  }

  async issue(subject: string): Promise<IssuedJwt> {
    const iat = Math.floor(this.now() / 1000);
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: ALG, typ: 'JWT' })
      .setSubject(subject)
      .setIssuer(JWT_ISSUER)
      .setAudience(JWT_AUDIENCE)
      .setIssuedAt(iat)
      .setNotBefore(iat)
      .setExpirationTime(iat + this.ttlSeconds)
      .setJti(randomBytes(8).toString('hex'))
      .sign(this.#key);
    return { token, expiresIn: this.ttlSeconds };
  }

  /** The subject of a valid token, or null for anything else (expired, not yet valid, tampered, wrong aud…). */
  async verify(token: string): Promise<string | null> {
    const currentDate = new Date(this.now());
    try {
      const { payload } = await jwtVerify(token, this.#key, {
        algorithms: [ALG],
        issuer: JWT_ISSUER,
        audience: JWT_AUDIENCE,
        requiredClaims: ['sub', 'iat', 'exp'],
        currentDate,
      });
      // jose checks iat only together with maxTokenAge; a token "issued in the future" is not yet valid.
      if (typeof payload.iat !== 'number' || payload.iat > Math.floor(currentDate.getTime() / 1000)) return null;
      return payload.sub ?? null;
    } catch {
      return null;
    }
  }
}

/** Cheap shape test so opaque tokens are not sent through JWS parsing. */
export function looksLikeJwt(token: string): boolean {
  return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(token);
}
