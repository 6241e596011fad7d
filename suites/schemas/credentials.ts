/** Schemas: the bodies of the credential operations — login (§2.6), the account read, the OAuth token. */
import { defineCheck } from '../../src/conformance/check.ts';
import { fail, skip } from '../../src/conformance/outcomes.ts';
import { expect2xx } from '../../src/conformance/expect.ts';
import { configuredLogin, getAccount, obtainJwt } from '../../src/conformance/operations.ts';
import { guarded, jwtLoginCheck, requiresCredential, requiresProfile } from '../../src/conformance/preconditions.ts';
import { firstExchange } from '../lib/oauth-client.ts';
import { expectFields, jsonBody } from './lib/spec-fields.ts';


export const loginFields = requiresCredential('login')(
  defineCheck({
    id: 'schemas.login.spec-fields',
    suite: 'schemas',
    title: 'The login response has token (a JWT) and expires_in (an integer)',
    level: 'MUST',
    specRef: 'SERVICE-SPEC §2.6, §4 (POST /v1/auth/login: "Object with token and expires_in"), §5 rule 2',
    clauses: ['§2.6', '§4.login'],
    async run(ctx) {
      expectFields(jsonBody(await configuredLogin(ctx), 'login response'), { token: 'jwt', expires_in: 'integer' }, 'the login response', '§2.6');
    },
  }),
);

export const loginSchema = jwtLoginCheck(
  defineCheck({
    id: 'schemas.login.schema',
    suite: 'schemas',
    title: 'The login response matches schema login-response (expires_in in seconds, at least 1)',
    level: 'PROFILE',
    specRef: 'PROFILE Authentication ("answers 200 {token, expires_in}, expires_in in seconds"); schemas/api/login-response.schema.json (api.schemas)',
    clauses: ['§2.6'],
    async run(ctx) {
      ctx.schemas.expect('login-response', jsonBody(await configuredLogin(ctx), 'login response'), 'login response');
    },
  }),
);

export const accountSchema = jwtLoginCheck(
  defineCheck({
    id: 'schemas.account.schema',
    suite: 'schemas',
    title: 'The account read matches schema account ({id, email, name, plan, created_at})',
    level: 'PROFILE',
    specRef: 'PROFILE Authentication ("GET /v1/account (200 {id, email, name, plan, created_at})"); schemas/api/account.schema.json (api.schemas)',
    clauses: ['§4.account'],
    async run(ctx) {
      const res = await getAccount(ctx, await obtainJwt(ctx));
      expect2xx(res, 'account read with the JWT');
      ctx.schemas.expect('account', jsonBody(res, 'account response'), 'account response');
    },
  }),
);

export const oauthTokenSchema = guarded(
  defineCheck({
    id: 'schemas.oauth-token.schema',
    suite: 'schemas',
    title: 'The OAuth token response matches schema oauth-token-response ({access_token, token_type, expires_in, scope})',
    level: 'PROFILE',
    specRef: 'PROFILE Authentication ("Success 200: {access_token, token_type: \\"Bearer\\", expires_in, scope}"); schemas/api/oauth-token-response.schema.json',
    clauses: ['§4.oauth-token'],
    async run(ctx) {
      // The run's first code exchange (shared with the auth suite): codes are single-use, and with
      // `consent: code` there is only one.
      const { res } = await firstExchange(ctx);
      if (res.status < 200 || res.status > 299) skip(`the code exchange was refused (${res.status}; auth.oauth.code-exchange reports it)`);
      const outcome = ctx.schemas.validate('oauth-token-response', res.json());
      if (!outcome.ok) fail(`token response does not match schema "oauth-token-response": ${outcome.errors.slice(0, 5).join('; ')}`, { errors: outcome.errors }, [res.exchange]);
    },
  }),
  requiresProfile('oauth'),
  requiresCredential('oauth'),
);
