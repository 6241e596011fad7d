/** Smoke: log in for a JWT, then read the account with it (SERVICE-SPEC §5 rule 2). */
import { defineCheck } from '../../src/conformance/check.ts';
import { fail } from '../../src/conformance/outcomes.ts';
import { expect2xx, jsonObject } from '../../src/conformance/expect.ts';
import { configuredLogin, getAccount, obtainJwt } from '../../src/conformance/operations.ts';
import { guarded, jwtLoginCheck, requiresCredential } from '../../src/conformance/preconditions.ts';

export const loginIssuesJwt = requiresCredential('login')(
  defineCheck({
    id: 'smoke.login-issues-jwt',
    suite: 'smoke',
    title: 'Login with email and password answers a token and expires_in',
    level: 'MUST',
    specRef: 'SERVICE-SPEC §2.6, §4 (POST /v1/auth/login), §5 rule 2',
    clauses: ['§2.6', '§4.login', '§5.2'],
    async run(ctx) {
      const body = jsonObject(await configuredLogin(ctx), 'login response');
      ctx.schemas.expect('login-response', body, 'login response');
      if (typeof body.token !== 'string' || body.token.split('.').length !== 3) fail('login response: "token" must be a JWT (three dot-separated parts)');
      if (!Number.isInteger(body.expires_in)) fail(`login response: "expires_in" must be an integer, got ${JSON.stringify(body.expires_in)}`);
    },
  }),
);

export const accountWithJwt = guarded(
  defineCheck({
    id: 'smoke.account-with-jwt',
    suite: 'smoke',
    title: 'GET /v1/account with the JWT from login is answered',
    level: 'MUST',
    specRef: 'SERVICE-SPEC §4 (GET /v1/account, auth JWT), §5 rule 2',
    clauses: ['§4.account', '§5.2'],
    async run(ctx) {
      const res = await getAccount(ctx, await obtainJwt(ctx));
      expect2xx(res, 'account read with the JWT');
      jsonObject(res, 'account response');
    },
  }),
  requiresCredential('login'),
);

export const accountShape = jwtLoginCheck(
  defineCheck({
    id: 'smoke.account-shape',
    suite: 'smoke',
    title: 'The account read answers {id, email, name, plan, created_at}',
    level: 'PROFILE',
    specRef: 'PROFILE Authentication (GET /v1/account 200 body)',
    clauses: ['§4.account'],
    async run(ctx) {
      const res = await getAccount(ctx, await obtainJwt(ctx));
      expect2xx(res, 'account read with the JWT');
      ctx.schemas.expect('account', jsonObject(res, 'account response'), 'account response');
    },
  }),
);
