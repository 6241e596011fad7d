/**
 * Tokens the harness mints itself, for a test deployment that shares its JWT signing key
 * (credentials.jwtSigning): expired, not yet valid, for another audience, from another issuer. Without a shared
 * key a target's long-lived tokens leave these rules untestable, and the checks say exactly that.
 *
 * Every minted token copies the claims of a token the target issued (sub, iss, aud, anything else), so it
 * differs from an acceptable token only in the one claim under test — and a control token minted the same way
 * with nothing changed must be accepted first, or a 401 for the bad one would prove nothing.
 */
import { randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import { defineCheck } from '../../src/conformance/check.ts';
import { skip } from '../../src/conformance/outcomes.ts';
import type { CheckContext } from '../../src/conformance/context.ts';
import { expectStatus } from '../../src/conformance/expect.ts';
import { getAccount, jwtClaims, obtainJwt } from '../../src/conformance/operations.ts';
import { guarded, requiresCredential } from '../../src/conformance/preconditions.ts';

/** Lifetime of a minted token that should be accepted. */
const LIFETIME_S = 600;
/** Far enough from now that no clock skew between harness and target makes the token valid. */
const FAR_S = 3600;

export interface Minter {
  /** A token with the issued token's claims, iat now, exp now + 10 min, then `change` applied (undefined removes). */
  mint(change?: Record<string, unknown>): Promise<string>;
  claims: Record<string, unknown>;
}

/** The minter, after a control token minted with no change was accepted; skips (saying why) otherwise. */
export async function minter(ctx: CheckContext, what: string): Promise<Minter> {
  const signing = ctx.credentials.jwtSigning;
  if (!signing) skip(`no credentials.jwtSigning (the target's JWT signing key) is configured, so the harness cannot mint ${what}`);
  const issued = jwtClaims(await obtainJwt(ctx)) ?? {};
  const claims: Record<string, unknown> = { ...issued };
  for (const name of ['iat', 'nbf', 'exp', 'jti']) delete claims[name];
  if (signing.issuer !== undefined) claims.iss = signing.issuer;
  if (signing.audience !== undefined) claims.aud = signing.audience;
  const key = new TextEncoder().encode(signing.key);
  const mint = async (change: Record<string, unknown> = {}): Promise<string> => {
    const now = Math.floor(Date.now() / 1000);
    const payload: Record<string, unknown> = { ...claims, iat: now, exp: now + LIFETIME_S, jti: randomBytes(8).toString('hex'), ...change };
    for (const [name, value] of Object.entries(payload)) if (value === undefined) delete payload[name];
    const token = await new SignJWT(payload).setProtectedHeader({ alg: signing.alg, typ: 'JWT' }).sign(key);
    ctx.secrets.add(token);
    return token;
  };
  const control = await getAccount(ctx, await mint());
  if (control.status < 200 || control.status > 299) {
    skip(`a token minted with credentials.jwtSigning (${signing.alg}) and the claims of an issued token is itself refused (${control.status}): `
      + 'the configured key, algorithm, issuer or audience do not match the target\'s, so a 401 for a bad token would prove nothing');
  }
  return { mint, claims };
}

/** An expired token (exp an hour ago), minted: for expiredRejected when the target's own tokens live too long. */
export async function mintedExpired(ctx: CheckContext): Promise<string> {
  const { mint } = await minter(ctx, 'an expired token');
  const now = Math.floor(Date.now() / 1000);
  return mint({ iat: now - 2 * FAR_S, nbf: undefined, exp: now - FAR_S });
}

export const notYetValidRejected = requiresCredential('login')(
  defineCheck({
    id: 'auth.jwt.not-yet-valid-rejected',
    suite: 'auth',
    title: 'A JWT whose nbf lies an hour ahead (minted with credentials.jwtSigning) is refused with 401',
    level: 'MUST',
    specRef: 'SERVICE-SPEC §5 rule 5 (invalid credentials yield 401), §7 (401); RFC 7519 §4.1.5 (nbf: the JWT MUST NOT be accepted before it)',
    clauses: ['§5.2', '§5.5', '§7.401'],
    owasp: ['API2:2023'],
    async run(ctx) {
      const { mint } = await minter(ctx, 'a not-yet-valid token');
      const now = Math.floor(Date.now() / 1000);
      expectStatus(await getAccount(ctx, await mint({ nbf: now + FAR_S, exp: now + 2 * FAR_S })), [401], 'account read with a JWT not valid for another hour (nbf)');
    },
  }),
);

interface ChangedClaim {
  id: string;
  title: string;
  specRef: string;
  claim: 'aud' | 'iss';
  /** The jwtSigning field that names the claim's value when the target's tokens do not carry it. */
  setting: 'audience' | 'issuer';
  /** "for another audience", "from another issuer": the minted token, in the check's messages. */
  other: string;
  value: string;
}

/** A JWT minted with the issued token's claims but `claim` changed is refused with 401. */
function changedClaimRejected(spec: ChangedClaim) {
  return guarded(
    defineCheck({
      id: spec.id,
      suite: 'auth',
      title: spec.title,
      level: 'SHOULD',
      specRef: spec.specRef,
      clauses: ['§5.5', '§7.401'],
      owasp: ['API2:2023'],
      async run(ctx) {
        const { mint, claims } = await minter(ctx, `a token ${spec.other}`);
        if (claims[spec.claim] === undefined) {
          skip(`the target's tokens carry no ${spec.claim} claim and credentials.jwtSigning.${spec.setting} is not set: the target names no ${spec.setting} a token could differ from`);
        }
        expectStatus(await getAccount(ctx, await mint({ [spec.claim]: spec.value })), [401], `account read with a JWT ${spec.other}`);
      },
    }),
    requiresCredential('login'),
  );
}

export const otherAudienceRejected = changedClaimRejected({
  id: 'auth.jwt.other-audience-rejected',
  title: 'A JWT for another audience (aud changed, minted with credentials.jwtSigning) is refused with 401',
  specRef: 'RFC 7519 §4.1.3 (a JWT whose aud does not name the recipient MUST be rejected), RFC 8725 §3.9; SERVICE-SPEC §5 rule 5 (401)',
  claim: 'aud',
  setting: 'audience',
  other: 'for another audience',
  value: 'https://harness.invalid/another-audience',
});

export const otherIssuerRejected = changedClaimRejected({
  id: 'auth.jwt.other-issuer-rejected',
  title: 'A JWT from another issuer (iss changed, minted with credentials.jwtSigning) is refused with 401',
  specRef: 'RFC 8725 §3.8 (validate the issuer), RFC 7519 §4.1.1; SERVICE-SPEC §5 rule 5 (401)',
  claim: 'iss',
  setting: 'issuer',
  other: 'from another issuer',
  value: 'https://harness.invalid/another-issuer',
});

export const JWT_MINTED_CHECKS = [notYetValidRejected, otherAudienceRejected, otherIssuerRejected];
