/**
 * Auth / JWT use: GET /v1/account refuses anything but a live, untouched JWT (SERVICE-SPEC §5 rules 2 and 5),
 * and the credentials are not interchangeable (PROFILE).
 */
import { defineCheck } from '../../src/conformance/check.ts';
import { fail, skip, undecided } from '../../src/conformance/outcomes.ts';
import { describeConditions, timestampUncertaintyMs } from '../../src/conformance/conditions.ts';
import type { CheckContext } from '../../src/conformance/context.ts';
import { expectStatus } from '../../src/conformance/expect.ts';
import { freshJwt, getAccount, listMessages, obtainJwt, sendMessage, textMessage, unusableReason } from '../../src/conformance/operations.ts';
import { mintedExpired } from './jwt-minted.ts';
import { guarded, jwtLoginCheck, requiresCredential, requiresProfile } from '../../src/conformance/preconditions.ts';
import { parseJws, unsecuredCopy, withBrokenSignature, withChangedClaims, type JwsParts } from './lib/jws.ts';

export const accountWithoutCredential = defineCheck({
  id: 'auth.jwt.account-without-credential',
  suite: 'auth',
  title: 'GET /v1/account without any credential is refused with 401',
  level: 'MUST',
  specRef: 'SERVICE-SPEC §4 (GET /v1/account, auth JWT), §5 rule 5, §7 (401)',
  clauses: ['§4.account', '§5.5', '§7.401'],
  async run(ctx) {
    expectStatus(await getAccount(ctx, undefined), [401], 'account read without an Authorization header');
  },
});

/**
 * A JWS from the configured login whose untouched form the target accepts: only then does a 401 for a forged
 * copy show that the forgery was detected (and not that the account read is broken).
 */
async function acceptedJws(ctx: CheckContext): Promise<JwsParts> {
  const token = await obtainJwt(ctx);
  const parts = parseJws(token);
  if (!parts) skip('the login token is not a compact JWS, so it cannot be altered part by part');
  const control = await getAccount(ctx, token);
  if (control.status < 200 || control.status > 299) skip(`the untouched JWT is itself refused (${control.status}), so a 401 for an altered one would prove nothing`);
  return parts;
}

const MUST_INVALID = { level: 'MUST', specRef: 'SERVICE-SPEC §5 rule 5 (invalid credentials yield 401), §7 (401); RFC 7515 §5.2', clauses: ['§5.2', '§5.5', '§7.401'], owasp: ['API2:2023'] } as const;

export const expiredRejected = requiresCredential('login')(
  defineCheck({
    id: 'auth.jwt.expired-rejected',
    suite: 'auth',
    title: 'A JWT past its exp is refused with 401',
    ...MUST_INVALID,
    specRef: 'SERVICE-SPEC §5 rule 5 (invalid credentials yield 401), §7 (401); RFC 7519 §4.1.4',
    // Most of this check is waiting for its token to expire. Beside it may run suites that never log the configured
    // account in (a new login could end its token's session on some targets; inputs logs in only generated
    // accounts), leave the per-address bucket its expired token is counted in alone, and count no one's requests.
    // Not schemas (it logs the account in), not ratelimit (it exhausts that bucket and counts), not standing (it
    // reads every check's traffic).
    besideSuites: ['pagination', 'email', 'idempotency', 'ownership', 'inputs', 'errors', 'security', 'webhooks'],
    async run(ctx) {
      const issued = await freshJwt(ctx).catch((err: Error) => skip(`needs a JWT, but ${err.message}`));
      const unusable = unusableReason(issued, Date.now());
      if (unusable !== undefined) skip(`needs a JWT that is valid before it expires, but ${unusable}`);
      const { maxWaitSeconds, checkTimeoutMs } = ctx.config.conformance;
      // One second past exp: NumericDates are whole seconds, and "exp <= now" is when a token dies.
      const waitMs = issued.expiresAtMs + 1000 - Date.now();
      // The wait must fit maxWaitSeconds and leave the check time to finish within its own deadline; a token that
      // lives longer is tested with one minted expired (credentials.jwtSigning), or the skip says both reasons.
      const tooLong = !Number.isFinite(issued.expiresAtMs)
        ? 'the login token states no expiry (no exp claim, no expires_in)'
        : waitMs > maxWaitSeconds * 1000
          ? `the JWT expires in ${Math.ceil(waitMs / 1000)} s, longer than conformance.maxWaitSeconds (${maxWaitSeconds} s) allows this check to wait`
          : waitMs > checkTimeoutMs - 2000 ? `the JWT expires in ${Math.ceil(waitMs / 1000)} s, too close to conformance.checkTimeoutMs (${checkTimeoutMs} ms)` : undefined;
      if (tooLong !== undefined) {
        if (!ctx.credentials.jwtSigning) skip(`${tooLong}, and no credentials.jwtSigning (the target's signing key) is configured to mint an expired token`);
        expectStatus(await getAccount(ctx, await mintedExpired(ctx)), [401], 'account read with a JWT that expired an hour ago (minted with credentials.jwtSigning)');
        return;
      }
      const mark = ctx.conditions.mark();
      const control = await getAccount(ctx, issued.token);
      if (control.status < 200 || control.status > 299) {
        // A control sent so close to exp that this run's measured stalls may have carried it past: not the target's doing.
        const conditions = ctx.conditions.since(mark - 1000);
        const marginMs = issued.expiresAtMs - (Date.now() - control.durationMs);
        if (marginMs <= timestampUncertaintyMs(conditions)) {
          undecided(`the fresh JWT was refused (${control.status}) ${Math.round(marginMs)} ms before its exp, within the measured timing uncertainty `
            + `(${timestampUncertaintyMs(conditions)} ms: ${describeConditions(conditions)}), so it may have expired on the way`, { conditions, marginMs });
        }
        skip(`the fresh JWT is itself refused (${control.status}), so a 401 after expiry would prove nothing`);
      }
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, waitMs)));
      const res = await getAccount(ctx, issued.token);
      expectStatus(res, [401], `account read with a JWT that expired ${Math.round((Date.now() - issued.expiresAtMs) / 100) / 10} s ago`);
    },
  }),
);

export const tamperedPayload = requiresCredential('login')(
  defineCheck({
    id: 'auth.jwt.tampered-payload-rejected',
    suite: 'auth',
    title: 'A JWT whose payload was changed (another sub, a later exp) under the original signature is refused with 401',
    ...MUST_INVALID,
    async run(ctx) {
      const parts = await acceptedJws(ctx);
      const exp = typeof parts.claims.exp === 'number' ? parts.claims.exp + 86_400 : Math.floor(Date.now() / 1000) + 86_400;
      const sub = `${String(parts.claims.sub ?? 'user')}-other`;
      for (const [what, change] of [['another sub', { sub }], ['an exp one day later', { exp }]] as const) {
        expectStatus(await getAccount(ctx, withChangedClaims(parts, change)), [401], `account read with a JWT altered to carry ${what}, signature unchanged`);
      }
    },
  }),
);

export const tamperedSignature = requiresCredential('login')(
  defineCheck({
    id: 'auth.jwt.tampered-signature-rejected',
    suite: 'auth',
    title: 'A JWT with an altered signature is refused with 401',
    ...MUST_INVALID,
    async run(ctx) {
      const parts = await acceptedJws(ctx);
      expectStatus(await getAccount(ctx, withBrokenSignature(parts)), [401], 'account read with a JWT whose signature was altered');
    },
  }),
);

export const algNoneRejected = requiresCredential('login')(
  defineCheck({
    id: 'auth.jwt.alg-none-rejected',
    suite: 'auth',
    title: 'An unsigned JWT (header alg "none", empty signature) with the same claims is refused with 401',
    ...MUST_INVALID,
    specRef: 'SERVICE-SPEC §5 rule 5 (invalid credentials yield 401), §7 (401); RFC 8725 §2.1, §3.1',
    async run(ctx) {
      const parts = await acceptedJws(ctx);
      expectStatus(await getAccount(ctx, unsecuredCopy(parts)), [401], 'account read with an alg "none" copy of the JWT');
    },
  }),
);

export const apiKeyOnAccount = guarded(
  defineCheck({
    id: 'auth.jwt.api-key-on-account-refused',
    suite: 'auth',
    title: 'An API key is not a user credential: GET /v1/account with it is refused with 401',
    level: 'PROFILE',
    specRef: 'PROFILE Authentication ("An API key on /v1/account gets 401")',
    clauses: ['§4.account'],
    owasp: ['API5:2023'],
    async run(ctx) {
      expectStatus(await getAccount(ctx, ctx.credentials.apiKey!), [401], 'account read with the API key');
    },
  }),
  requiresCredential('apiKey'),
  requiresProfile('jwt'),
);

export const jwtOnMessaging = jwtLoginCheck(
  defineCheck({
    id: 'auth.jwt.jwt-on-messaging-refused',
    suite: 'auth',
    title: 'A user JWT is not an API key: send and list with it are refused with 401',
    level: 'PROFILE',
    specRef: 'PROFILE Authentication ("a JWT on the messaging operations gets 401")',
    clauses: ['§5.1'],
    owasp: ['API5:2023'],
    async run(ctx) {
      const jwt = await obtainJwt(ctx);
      const sent = await sendMessage(ctx, textMessage(), { bearer: jwt });
      if (sent.status >= 200 && sent.status < 300) fail(`send with the user JWT: expected 401, got ${sent.status} — the message was accepted`, { expected: 401, actual: sent.status });
      expectStatus(sent, [401], 'send with the user JWT');
      expectStatus(await listMessages(ctx, {}, { bearer: jwt }), [401], 'list with the user JWT');
    },
  }),
);

export const JWT_TOKEN_CHECKS = [accountWithoutCredential, expiredRejected, tamperedPayload, tamperedSignature, algNoneRejected, apiKeyOnAccount, jwtOnMessaging];
