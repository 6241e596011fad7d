/** Auth / JWT login: what POST /v1/auth/login issues and how it refuses (SERVICE-SPEC §2.6, §5 rule 2; PROFILE). */
import { randomBytes } from 'node:crypto';
import { defineCheck } from '../../src/conformance/check.ts';
import { fail, skip } from '../../src/conformance/outcomes.ts';
import type { CheckContext } from '../../src/conformance/context.ts';
import { expectStatus, jsonObject } from '../../src/conformance/expect.ts';
import { configuredLogin, freshJwt, login } from '../../src/conformance/operations.ts';
import { jwtLoginCheck, requiresCredential, requiresProfile } from '../../src/conformance/preconditions.ts';
import { parseRetryAfter } from '../../src/http/retry-after.ts';
import { decodeSegment, parseJws } from './lib/jws.ts';

/** A login with the configured account; the token is registered as a secret. */
async function loginOk(ctx: CheckContext): Promise<{ token: unknown; expiresIn: unknown }> {
  const body = jsonObject(await configuredLogin(ctx), 'login response');
  return { token: body.token, expiresIn: body.expires_in };
}

/** An address no account has: random, on the reserved example.com domain (RFC 2606). */
export function strangerEmail(label: string): string {
  return `harness-${label}-${randomBytes(6).toString('hex')}@example.com`;
}

function randomPassword(ctx: CheckContext): string {
  const password = `Wrong-${randomBytes(12).toString('base64url')}`;
  ctx.secrets.add(password);
  return password;
}

export const tokenIsJwt = requiresCredential('login')(
  defineCheck({
    id: 'auth.jwt.token-is-jwt',
    suite: 'auth',
    title: 'Login issues a JWT (a compact JWS or JWE with a readable header) and expires_in as an integer',
    level: 'MUST',
    specRef: 'SERVICE-SPEC §2.6 (token: a JWT; expires_in: integer), §5 rule 2; RFC 7519 §3, §7.2',
    clauses: ['§2.6', '§4.login', '§5.2'],
    async run(ctx) {
      const { token, expiresIn } = await loginOk(ctx);
      if (typeof token !== 'string') fail(`login response: "token" must be a string, got ${JSON.stringify(token)}`);
      const segments = token.split('.');
      const header = decodeSegment(segments[0] ?? '');
      if (segments.length === 3) {
        if (!parseJws(token) || typeof header?.alg !== 'string') {
          fail('login token: three parts, but not a JWS: the header must be a base64url JSON object with "alg" and the payload a base64url JSON object', { parts: segments.length, header });
        }
      } else if (segments.length === 5) {
        if (typeof header?.alg !== 'string' || typeof header.enc !== 'string') fail('login token: five parts, but not a JWE: the header must be a base64url JSON object with "alg" and "enc"', { header });
      } else {
        fail(`login token: a JWT has three (JWS) or five (JWE) dot-separated parts, this one has ${segments.length}`);
      }
      if (!Number.isInteger(expiresIn)) fail(`login response: "expires_in" must be an integer, got ${JSON.stringify(expiresIn)}`);
    },
  }),
);

export const profileClaims = jwtLoginCheck(
  defineCheck({
    id: 'auth.jwt.profile-claims',
    suite: 'auth',
    title: 'The login JWT is a signed JWS carrying sub, iat, exp, iss and aud, with exp after iat',
    level: 'PROFILE',
    specRef: 'PROFILE Authentication ("The token is a JWS with sub, iat, exp, iss, aud"); RFC 7519 §4.1',
    clauses: ['§2.6'],
    async run(ctx) {
      const { token } = await loginOk(ctx);
      const jws = typeof token === 'string' ? parseJws(token) : undefined;
      if (!jws) fail('login token: expected a compact JWS (three base64url JSON parts)');
      if (typeof jws.header.alg !== 'string' || jws.header.alg.toLowerCase() === 'none') fail(`login token: expected a signed JWS, got alg ${JSON.stringify(jws.header.alg)}`);
      const missing = ['sub', 'iat', 'exp', 'iss', 'aud'].filter((claim) => jws.claims[claim] === undefined);
      if (missing.length > 0) fail(`login token: claims ${missing.join(', ')} are missing`, { expected: ['sub', 'iat', 'exp', 'iss', 'aud'], actual: Object.keys(jws.claims) });
      const { iat, exp } = jws.claims;
      if (typeof iat !== 'number' || typeof exp !== 'number' || exp <= iat) fail(`login token: iat and exp must be NumericDates with exp after iat, got iat ${JSON.stringify(iat)}, exp ${JSON.stringify(exp)}`);
    },
  }),
);

/** Clock difference tolerated between the harness and the target when judging exp and nbf against now. */
const CLOCK_SKEW_S = 60;

export const usableAtIssue = requiresCredential('login')(
  defineCheck({
    id: 'auth.jwt.usable-at-issue',
    suite: 'auth',
    title: 'The JWT login issues is usable when issued: a positive expires_in; exp after iat and not past; nbf not ahead',
    level: 'MUST',
    specRef: 'SERVICE-SPEC §5 rule 2 (the JWT from login is the Bearer credential for GET /v1/account), §2.6 (expires_in: the token lifetime); RFC 7519 §4.1.4, §4.1.5',
    clauses: ['§2.6', '§4.login', '§5.2'],
    async run(ctx) {
      const { token, expiresIn } = await loginOk(ctx);
      const nowS = Math.floor(Date.now() / 1000);
      const problems: string[] = [];
      if (typeof expiresIn === 'number' && expiresIn <= 0) problems.push(`expires_in is ${expiresIn}: a lifetime of zero or less`);
      const claims = typeof token === 'string' ? parseJws(token)?.claims : undefined;
      const { iat, nbf, exp } = claims ?? {};
      if (typeof exp === 'number') {
        if (typeof iat === 'number' && exp <= iat) problems.push(`exp (${exp}) is not after iat (${iat})`);
        if (exp < nowS - CLOCK_SKEW_S) problems.push(`exp lies ${nowS - exp} s in the past (harness clock, ${CLOCK_SKEW_S} s tolerance)`);
      }
      if (typeof nbf === 'number' && nbf > nowS + CLOCK_SKEW_S) problems.push(`nbf lies ${nbf - nowS} s in the future (harness clock, ${CLOCK_SKEW_S} s tolerance)`);
      if (typeof nbf === 'number' && typeof exp === 'number' && nbf >= exp) problems.push(`nbf (${nbf}) is not before exp (${exp}): never valid`);
      if (problems.length > 0) {
        fail(`the login issued a token that is unusable when issued: ${problems.join('; ')}`, {
          expiresIn: expiresIn ?? null,
          claims: { iat: iat ?? null, nbf: nbf ?? null, exp: exp ?? null },
          harnessNow: nowS,
        });
      }
    },
  }),
);

/** Seconds of disagreement tolerated between expires_in and exp − iat (both are whole seconds from one clock). */
const LIFETIME_TOLERANCE_S = 2;

export const expiresInSeconds = jwtLoginCheck(
  defineCheck({
    id: 'auth.jwt.expires-in-seconds',
    suite: 'auth',
    title: 'expires_in is the token lifetime in seconds: it agrees with the JWT\'s exp − iat',
    level: 'PROFILE',
    specRef: 'PROFILE Authentication ("expires_in in seconds"); RFC 7519 §4.1.4, §4.1.6',
    clauses: ['§2.6'],
    async run(ctx) {
      const { token, expiresIn } = await loginOk(ctx);
      const claims = typeof token === 'string' ? parseJws(token)?.claims : undefined;
      if (!claims || typeof claims.exp !== 'number' || typeof claims.iat !== 'number') {
        skip('the login token has no readable numeric iat and exp (auth.jwt.profile-claims reports that)');
      }
      const lifetime = claims.exp - claims.iat;
      if (typeof expiresIn !== 'number' || Math.abs(expiresIn - lifetime) > LIFETIME_TOLERANCE_S) {
        fail(`login response: expires_in ${JSON.stringify(expiresIn)} does not match the token's lifetime exp − iat = ${lifetime} s`, { expected: lifetime, actual: expiresIn, toleranceSeconds: LIFETIME_TOLERANCE_S });
      }
    },
  }),
);

/** One failed login with a wrong password for the configured account, one for an unknown email. */
export async function badLogins(ctx: CheckContext) {
  const { email } = ctx.credentials.login!;
  const wrongPassword = await login(ctx, { email, password: randomPassword(ctx) }, { retryOn429: false });
  const unknownEmail = await login(ctx, { email: strangerEmail('unknown'), password: randomPassword(ctx) }, { retryOn429: false });
  // The wrong password counted as a failed login for the configured account; a good one clears the count on
  // targets that throttle per account, so later checks never meet a lockout this check caused.
  await freshJwt(ctx).catch(() => undefined);
  return { wrongPassword, unknownEmail };
}

export const badLoginRefused = jwtLoginCheck(
  defineCheck({
    id: 'auth.jwt.bad-login-401',
    suite: 'auth',
    title: 'Login with a wrong password or an unknown email is refused with 401',
    level: 'PROFILE',
    specRef: 'PROFILE Authentication ("A wrong password and an unknown email get the same 401 body")',
    clauses: ['§4.login'],
    owasp: ['API2:2023'],
    async run(ctx) {
      const { wrongPassword, unknownEmail } = await badLogins(ctx);
      expectStatus(wrongPassword, [401], 'login with a wrong password');
      expectStatus(unknownEmail, [401], 'login with an unknown email');
    },
  }),
);

/** Members that legitimately differ per response (request ids, times) and are left out of the comparison. */
const PER_RESPONSE = new Set(['instance', 'request_id', 'requestid', 'trace_id', 'traceid', 'timestamp', 'time']);

function comparable(text: string): string {
  try {
    const body: unknown = JSON.parse(text);
    if (!body || typeof body !== 'object' || Array.isArray(body)) return text;
    return JSON.stringify(Object.fromEntries(Object.entries(body).filter(([key]) => !PER_RESPONSE.has(key.toLowerCase()))));
  } catch {
    return text;
  }
}

export const badLoginSameAnswer = requiresCredential('login')(
  defineCheck({
    id: 'auth.jwt.bad-login-no-enumeration',
    suite: 'auth',
    title: 'A wrong password and an unknown email get the same status and body, so accounts cannot be enumerated',
    level: 'SHOULD',
    specRef: 'OWASP Authentication Cheat Sheet ("Authentication Responses"), OWASP ASVS 4.0 V2.2',
    clauses: ['§4.login'],
    owasp: ['API2:2023'],
    async run(ctx) {
      const { wrongPassword, unknownEmail } = await badLogins(ctx);
      if (wrongPassword.status >= 200 && wrongPassword.status < 300) fail(`login with a wrong password was accepted (${wrongPassword.status})`);
      if (wrongPassword.status !== unknownEmail.status || comparable(wrongPassword.text) !== comparable(unknownEmail.text)) {
        fail(`a wrong password and an unknown email are told apart: ${wrongPassword.status} vs ${unknownEmail.status}${wrongPassword.status === unknownEmail.status ? ' with different bodies' : ''}`, {
          wrongPassword: { status: wrongPassword.status, body: wrongPassword.text.slice(0, 400) },
          unknownEmail: { status: unknownEmail.status, body: unknownEmail.text.slice(0, 400) },
        });
      }
    },
  }),
);

export const loginMissingFields = requiresProfile('jwt')(
  defineCheck({
    id: 'auth.jwt.login-missing-fields',
    suite: 'auth',
    title: 'A login without email, without password, or with an empty body is rejected as a bad request',
    level: 'PROFILE',
    specRef: 'PROFILE Authentication ("Missing fields: 400"); api.rejectedStatus',
    clauses: ['§2.6', '§4.login'],
    async run(ctx) {
      const variants: Array<[string, Record<string, string>]> = [
        ['without a password', { email: strangerEmail('nopassword') }],
        ['without an email', { password: randomPassword(ctx) }],
        ['with an empty object', {}],
      ];
      for (const [what, body] of variants) {
        expectStatus(await login(ctx, body, { retryOn429: false }), ctx.config.api.rejectedStatus, `login ${what}`);
      }
    },
  }),
);

/** Failed logins tried before concluding the target does not throttle (PROFILE's reference throttles after 5). */
const MAX_THROTTLE_ATTEMPTS = 20;

export const loginThrottled = requiresProfile('loginThrottling')(
  defineCheck({
    id: 'auth.jwt.login-throttled',
    suite: 'auth',
    title: 'Repeated failed logins for one email are throttled with 429 and a Retry-After',
    level: 'SHOULD',
    specRef: 'OWASP ASVS 4.0 V2.2.1 (anti-automation), OWASP Authentication Cheat Sheet; RFC 6585 §4 (429 with Retry-After)',
    clauses: ['§4.login', '§7.429'],
    owasp: ['API2:2023'],
    async run(ctx) {
      // A fresh address nobody uses: the configured account is never locked out by this check.
      const email = strangerEmail('throttle');
      const password = randomPassword(ctx);
      for (let attempt = 1; attempt <= MAX_THROTTLE_ATTEMPTS; attempt++) {
        const res = await login(ctx, { email, password }, { retryOn429: false });
        if (res.status !== 429) continue;
        const retryAfter = res.header('retry-after');
        if (parseRetryAfter(retryAfter, Date.now()) === undefined) {
          fail(`failed login ${attempt} was throttled with 429, but without a usable Retry-After (got ${JSON.stringify(retryAfter ?? null)})`, { attempt, retryAfter: retryAfter ?? null });
        }
        return;
      }
      fail(`${MAX_THROTTLE_ATTEMPTS} failed logins in a row for one email were never answered 429`, { attempts: MAX_THROTTLE_ATTEMPTS });
    },
  }),
);

export const JWT_LOGIN_CHECKS = [tokenIsJwt, usableAtIssue, profileClaims, expiresInSeconds, badLoginRefused, badLoginSameAnswer, loginMissingFields, loginThrottled];
