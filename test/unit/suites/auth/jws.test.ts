import { SignJWT, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { encodeSegment, parseJws, unsecuredCopy, withBrokenSignature, withChangedClaims } from '../../../../suites/auth/lib/jws.ts';
import { bearerChallenge } from '../../../../suites/auth/challenges.ts';

const key = new TextEncoder().encode('0123456789abcdef0123456789abcdef');
const sign = (claims: Record<string, unknown>) => new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid: 'k1' }).sign(key);
const verifies = (token: string) => jwtVerify(token, key).then(() => true, () => false);

describe('jws forgeries', () => {
  it('reads header and claims of a compact JWS, and nothing else', async () => {
    const token = await sign({ sub: 'u1', iat: 100, exp: 200 });
    expect(parseJws(token)).toMatchObject({ header: { alg: 'HS256' }, claims: { sub: 'u1' } });
    expect(parseJws('opaque-token')).toBeUndefined();
    expect(parseJws('a.b.c.d.e')).toBeUndefined();
    expect(parseJws(`${encodeSegment([1])}.${encodeSegment({})}.x`)).toBeUndefined();
  });

  it('every forgery keeps the claims readable but no longer verifies with the key', async () => {
    const token = await sign({ sub: 'u1', exp: 4_000_000_000 });
    expect(await verifies(token)).toBe(true);
    const parts = parseJws(token)!;
    const changed = withChangedClaims(parts, { sub: 'u2' });
    expect(parseJws(changed)!.claims.sub).toBe('u2');
    expect(await verifies(changed)).toBe(false);
    // The signature changes in its first character, whatever that character was.
    for (const first of ['A', 'B', 'z']) {
      const same = { ...parts, segments: [parts.segments[0], parts.segments[1], first + parts.segments[2].slice(1)] as [string, string, string] };
      expect(withBrokenSignature(same).split('.')[2]).not.toBe(same.segments[2]);
    }
    expect(await verifies(withBrokenSignature(parts))).toBe(false);
    const none = unsecuredCopy(parts);
    expect(none.endsWith('.')).toBe(true);
    expect(parseJws(none)!.header).toEqual({ alg: 'none', typ: 'JWT' });
  });
});

describe('bearerChallenge', () => {
  it('finds the Bearer challenge among others and reads its parameters case-insensitively', () => {
    expect(bearerChallenge('Bearer realm="api", error="invalid_token"')).toEqual({ realm: 'api', error: 'invalid_token' });
    expect(bearerChallenge('Basic realm="x", bearer ERROR=insufficient_scope, scope="a b"')).toEqual({ error: 'insufficient_scope', scope: 'a b' });
    expect(bearerChallenge('Bearer')).toEqual({});
    expect(bearerChallenge('Basic realm="Bearer"')).toBeUndefined();
    expect(bearerChallenge('BearerX realm="api"')).toBeUndefined();
    expect(bearerChallenge(undefined)).toBeUndefined();
  });
});
