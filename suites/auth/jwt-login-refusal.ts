/**
 * The MUST half of refusing a bad login: a wrong password (or an unknown email) yields no token. SERVICE-SPEC §5
 * rule 2 issues a JWT for an email AND its password, and rule 5 says invalid credentials yield 401; which status
 * exactly and which body are PROFILE (auth.jwt.bad-login-401), but a token handed to anyone who knows an email is
 * a broken §5 whatever the status. So: the answer is not a success and carries no token.
 */
import { defineCheck } from '../../src/conformance/check.ts';
import { fail } from '../../src/conformance/outcomes.ts';
import { guarded, requiresCredential } from '../../src/conformance/preconditions.ts';
import type { HttpResponse } from '../../src/http/client.ts';
import { badLogins } from './jwt-login.ts';

function issuedToken(res: HttpResponse): string | undefined {
  const body = res.json<Record<string, unknown>>();
  const token = body && typeof body === 'object' ? body.token : undefined;
  return typeof token === 'string' && token.length > 0 ? token : undefined;
}

export const badLoginNoToken = guarded(
  defineCheck({
    id: 'auth.jwt.bad-login-no-token',
    suite: 'auth',
    title: 'Login with a wrong password or an unknown email is not a success and yields no token',
    level: 'MUST',
    specRef: 'SERVICE-SPEC §5 rule 2 (a JWT is obtained with email and password), rule 5 (invalid credentials yield 401); the exact status and body are PROFILE (auth.jwt.bad-login-401)',
    clauses: ['§5.2', '§5.5', '§4.login'],
    owasp: ['API2:2023'],
    async run(ctx) {
      const { wrongPassword, unknownEmail } = await badLogins(ctx);
      const problems: string[] = [];
      for (const [what, res] of [['a wrong password for the configured account', wrongPassword], ['an unknown email', unknownEmail]] as const) {
        const token = issuedToken(res);
        if (token) ctx.secrets.add(token);
        if ((res.status >= 200 && res.status <= 299) || token) problems.push(`login with ${what} answered ${res.status}${token ? ' with a token' : ''}`);
      }
      if (problems.length > 0) fail(`a login with invalid credentials must not succeed: ${problems.join('; ')}`, { expected: 'a refusal (4xx, 401 per §5 rule 5) without a token', actual: problems });
    },
  }),
  requiresCredential('login'),
);
