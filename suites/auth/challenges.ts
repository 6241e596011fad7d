/**
 * Auth / challenges: what a refused request tells the client about how to authenticate (RFC 6750 §3). A
 * `WWW-Authenticate` header may carry several challenges (RFC 9110 §11.6.1); scheme and parameter names are
 * case-insensitive.
 */
import { defineCheck } from '../../src/conformance/check.ts';
import { fail, skip } from '../../src/conformance/outcomes.ts';
import { requiresCredential } from '../../src/conformance/preconditions.ts';
import type { HttpResponse } from '../../src/http/client.ts';
import { sendAs, unknownKey } from './api-key.ts';

/** The parameters of the Bearer challenge (names lower-cased), or undefined when there is no Bearer challenge. */
export function bearerChallenge(header: string | undefined): Record<string, string> | undefined {
  if (!header) return undefined;
  const match = /(?:^|,)\s*bearer(?=\s|,|$)/i.exec(header);
  if (!match) return undefined;
  const rest = header.slice(match.index + match[0].length);
  const params: Record<string, string> = {};
  // auth-param = token BWS "=" BWS ( token / quoted-string ); stop at the next challenge (a bare token).
  const param = /\s*,?\s*([A-Za-z0-9!#$%&'*+.^_`|~-]+)\s*=\s*("(?:[^"\\]|\\.)*"|[A-Za-z0-9!#$%&'*+.^_`|~-]+)/y;
  let found: RegExpExecArray | null;
  while ((found = param.exec(rest)) !== null) {
    const raw = found[2]!;
    params[found[1]!.toLowerCase()] = raw.startsWith('"') ? raw.slice(1, -1).replace(/\\(.)/g, '$1') : raw;
  }
  return params;
}

/** A one-line description of the header for failure messages. */
export function describeChallenge(header: string | undefined): string {
  return header === undefined ? 'no WWW-Authenticate header' : `WWW-Authenticate: ${header}`;
}

/** The check is about the 401's headers; whether 401 came at all is another check's business. */
function requireStatus(res: HttpResponse, status: number, otherCheck: string): void {
  if (res.status !== status) skip(`the target answered ${res.status}, not ${status} (that is ${otherCheck}'s failure), so there is no ${status} to inspect`);
}

export const challengeWithoutCredential = defineCheck({
  id: 'auth.challenge.bearer-on-401',
  suite: 'auth',
  title: 'A 401 for a request without a credential carries a WWW-Authenticate Bearer challenge',
  level: 'SHOULD',
  specRef: 'RFC 6750 §3, RFC 9110 §11.6.1 (a 401 carries WWW-Authenticate)',
  clauses: [],
  async run(ctx) {
    const res = await sendAs(ctx, {});
    requireStatus(res, 401, 'auth.api-key.missing-credential');
    const header = res.header('www-authenticate');
    if (!bearerChallenge(header)) {
      fail(`401 without a credential: expected a WWW-Authenticate header with the Bearer scheme, got ${describeChallenge(header)}`, { expected: 'WWW-Authenticate: Bearer …', actual: header ?? null });
    }
  },
});

export const challengeInvalidToken = defineCheck({
  id: 'auth.challenge.invalid-token-on-401',
  suite: 'auth',
  title: 'A 401 for an invalid credential carries WWW-Authenticate: Bearer … error="invalid_token"',
  level: 'SHOULD',
  specRef: 'RFC 6750 §3, §3.1 (invalid_token)',
  clauses: [],
  async run(ctx) {
    const res = await sendAs(ctx, { bearer: unknownKey() });
    requireStatus(res, 401, 'auth.api-key.unknown-key');
    const header = res.header('www-authenticate');
    const params = bearerChallenge(header);
    if (params?.error !== 'invalid_token') {
      fail(`401 for an unknown key: expected a Bearer challenge with error="invalid_token", got ${describeChallenge(header)}`, { expected: 'Bearer error="invalid_token"', actual: header ?? null });
    }
  },
});

export const challengeInsufficientScope = requiresCredential('restrictedKey')(
  defineCheck({
    id: 'auth.challenge.insufficient-scope-on-403',
    suite: 'auth',
    title: 'A 403 for a key without the needed permission carries WWW-Authenticate: Bearer error="insufficient_scope"',
    level: 'SHOULD',
    specRef: 'RFC 6750 §3, §3.1 (insufficient_scope)',
    clauses: [],
    owasp: ['API5:2023'],
    async run(ctx) {
      const res = await sendAs(ctx, { bearer: ctx.credentials.restrictedKey! });
      requireStatus(res, 403, 'auth.api-key.restricted-key-forbidden');
      const header = res.header('www-authenticate');
      const params = bearerChallenge(header);
      if (params?.error !== 'insufficient_scope') {
        fail(`403 for credentials.restrictedKey on send: expected a Bearer challenge with error="insufficient_scope", got ${describeChallenge(header)}`, { expected: 'Bearer error="insufficient_scope"', actual: header ?? null });
      }
    },
  }),
);

export const CHALLENGE_CHECKS = [challengeWithoutCredential, challengeInvalidToken, challengeInsufficientScope];
