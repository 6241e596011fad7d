/** Auth / OAuth2 flow: authorize → consent → code → token, and what the issued token answers (SERVICE-SPEC §5 rule 3). */
import { defineCheck } from '../../src/conformance/check.ts';
import { CheckSkipped, fail, skip } from '../../src/conformance/outcomes.ts';
import { expect2xx, expectStatus, jsonObject } from '../../src/conformance/expect.ts';
import { listMessages, sendMessage, textMessage } from '../../src/conformance/operations.ts';
import { authorize, ConsentNotRedirected, firstExchange, issuedToken, oauthCheck, oauthConfig, requestToken, requireCode, requiresAutomatedConsent, tokenFields } from '../lib/oauth-client.ts';

export const codeExchange = oauthCheck(
  defineCheck({
    id: 'auth.oauth.code-exchange',
    suite: 'auth',
    title: 'An authorization code exchanged at the token endpoint with the §2.7 fields (JSON) is answered with a token',
    level: 'MUST',
    specRef: 'SERVICE-SPEC §5 rule 3, §2.7, §4 (POST /v1/oauth/token)',
    clauses: ['§5.3', '§2.7', '§4.oauth-token', '§4.json'],
    async run(ctx) {
      const { res } = await firstExchange(ctx);
      expect2xx(res, 'code exchange at the token endpoint');
      jsonObject(res, 'token response');
    },
  }),
);

export const consentRedirect = oauthCheck(
  defineCheck({
    id: 'auth.oauth.consent-redirects-with-code',
    suite: 'auth',
    title: 'Approving consent redirects to the registered redirect_uri with a code (configured status, 302 by default)',
    level: 'PROFILE',
    specRef: 'PROFILE Authentication (consent POST; "Approval answers 302 to redirect_uri?code=…&state=…"); api.successStatus.oauthAuthorize',
    clauses: ['§5.3'],
    async run(ctx) {
      const auth = await authorize(ctx).catch((err: Error) => (err instanceof CheckSkipped ? Promise.reject(err) : fail(`consent with the user's JWT: ${err.message}`)));
      expectStatus(auth.response!, [ctx.config.api.successStatus.oauthAuthorize], 'consent POST');
      const expected = new URL(oauthConfig(ctx).redirectUri);
      const at = auth.location!;
      if (at.origin !== expected.origin || at.pathname !== expected.pathname) fail(`consent redirected to ${at.origin}${at.pathname}, not to the registered redirect_uri ${expected.origin}${expected.pathname}`);
      if (!auth.code) fail(`consent redirect carries no code${at.searchParams.get('error') ? ` but error=${at.searchParams.get('error')}` : ''}`);
    },
  }),
  requiresAutomatedConsent,
);

export const stateEchoed = oauthCheck(
  defineCheck({
    id: 'auth.oauth.state-echoed',
    suite: 'auth',
    title: 'The redirect back to the client carries the state sent in the authorization request, unchanged',
    level: 'SHOULD',
    specRef: 'RFC 6749 §4.1.2 (state REQUIRED in the response if present in the request), §10.12',
    clauses: ['§5.3'],
    async run(ctx) {
      const auth = await requireCode(ctx);
      const echoed = auth.location?.searchParams.get('state');
      if (echoed !== auth.state) fail(`redirect after consent: expected state=${auth.state}, got ${echoed === null || echoed === undefined ? 'no state' : `state=${echoed}`}`, { expected: auth.state, actual: echoed ?? null });
    },
  }),
  requiresAutomatedConsent,
);

export const denialRedirect = oauthCheck(
  defineCheck({
    id: 'auth.oauth.denial-redirect',
    suite: 'auth',
    title: 'A denied consent redirects to the client with error=access_denied, the state and no code',
    level: 'SHOULD',
    specRef: 'RFC 6749 §4.1.2.1 (access_denied)',
    clauses: ['§5.3'],
    async run(ctx) {
      const auth = await authorize(ctx, { decision: 'deny' }).catch((err: Error) => {
        if (err instanceof CheckSkipped) throw err;
        // No consent endpoint at the configured path: a PROFILE matter (auth.oauth.consent-redirects-with-code), not this rule's.
        if (err instanceof ConsentNotRedirected && (err.status === 404 || err.status === 405)) skip(`the consent endpoint answered ${err.status} (api.paths.oauthAuthorize); auth.oauth.consent-redirects-with-code reports it`);
        return fail(`denied consent: ${err.message}`);
      });
      const query = auth.location!.searchParams;
      if (query.get('error') !== 'access_denied') fail(`denied consent: expected a redirect with error=access_denied, got ${query.get('error') === null ? 'no error' : `error=${query.get('error')}`}`);
      if (auth.code !== undefined) fail('denied consent: the redirect carries a code');
      if (query.get('state') !== auth.state) fail(`denied consent: expected state=${auth.state} on the redirect, got ${query.get('state') ?? 'no state'}`);
    },
  }),
  requiresAutomatedConsent,
);

export const tokenResponseRfc = oauthCheck(
  defineCheck({
    id: 'auth.oauth.token-response-rfc',
    suite: 'auth',
    title: 'The token response carries access_token and token_type "Bearer"',
    level: 'SHOULD',
    specRef: 'RFC 6749 §5.1 (access_token, token_type REQUIRED), RFC 6750 §4',
    clauses: ['§5.3'],
    async run(ctx) {
      const { res } = await firstExchange(ctx);
      if (res.status < 200 || res.status > 299) skip(`the code exchange was refused (${res.status}; auth.oauth.code-exchange reports it)`);
      const body = res.json<Record<string, unknown>>();
      if (typeof body?.access_token !== 'string' || body.access_token.length === 0) fail('token response: expected a non-empty string "access_token"', { actual: body?.access_token ?? null }, [res.exchange]);
      if (typeof body.token_type !== 'string' || body.token_type.toLowerCase() !== 'bearer') fail(`token response: expected token_type "Bearer", got ${JSON.stringify(body.token_type)}`, { actual: body.token_type ?? null }, [res.exchange]);
    },
  }),
);

export const tokenResponseFields = oauthCheck(
  defineCheck({
    id: 'auth.oauth.token-response-fields',
    suite: 'auth',
    title: 'The token response is {access_token, token_type "Bearer", expires_in (integer seconds), scope}',
    level: 'PROFILE',
    specRef: 'PROFILE Authentication ("Success 200: {access_token, token_type: \\"Bearer\\", expires_in, scope}"); RFC 6749 §5.1',
    clauses: ['§5.3'],
    async run(ctx) {
      const { res } = await issuedToken(ctx);
      const status = ctx.config.api.successStatus.oauthToken;
      if (res.status !== status) fail(`code exchange: expected ${status}, got ${res.status}`, { expected: status, actual: res.status }, [res.exchange]);
      const outcome = ctx.schemas.validate('oauth-token-response', jsonObject(res, 'token response'));
      if (!outcome.ok) fail(`token response does not match schema "oauth-token-response": ${outcome.errors.slice(0, 5).join('; ')}`, { errors: outcome.errors }, [res.exchange]);
    },
  }),
);

export const tokenNoStore = oauthCheck(
  defineCheck({
    id: 'auth.oauth.token-no-store',
    suite: 'auth',
    title: 'The token response is marked Cache-Control: no-store',
    level: 'SHOULD',
    specRef: 'RFC 6749 §5.1 ("Cache-Control header field with a value of no-store")',
    clauses: [],
    async run(ctx) {
      const { res } = await issuedToken(ctx);
      const header = res.header('cache-control');
      if (!header || !header.split(',').some((d) => d.trim().toLowerCase() === 'no-store')) {
        fail(`token response: expected Cache-Control: no-store, got ${header === undefined ? 'no Cache-Control header' : `Cache-Control: ${header}`}`, { expected: 'no-store', actual: header ?? null }, [res.exchange]);
      }
    },
  }),
);

export const formEncodedExchange = oauthCheck(
  defineCheck({
    id: 'auth.oauth.form-encoded-exchange',
    suite: 'auth',
    title: 'The token endpoint also accepts the exchange form-encoded (application/x-www-form-urlencoded)',
    level: 'SHOULD',
    specRef: 'RFC 6749 §4.1.3 (token request in application/x-www-form-urlencoded)',
    clauses: ['§4.oauth-token'],
    async run(ctx) {
      const res = await requestToken(ctx, tokenFields(ctx, await requireCode(ctx)), 'form');
      expect2xx(res, 'form-encoded code exchange');
      if (typeof jsonObject(res, 'token response').access_token !== 'string') fail('form-encoded code exchange: the answer carries no access_token');
    },
  }),
);

export const tokenWithinScope = oauthCheck(
  defineCheck({
    id: 'auth.oauth.token-within-scope',
    suite: 'auth',
    title: 'An access token granted messages:read is accepted on the message list',
    level: 'PROFILE',
    specRef: 'PROFILE Authentication ("An access token acts like an API key limited to its granted scopes")',
    clauses: ['§5.3', '§4.list'],
    async run(ctx) {
      const { token, scope } = await issuedToken(ctx);
      const granted = (scope ?? oauthConfig(ctx).scope).split(' ');
      if (!granted.includes('messages:read')) skip(`the token was not granted messages:read (scope "${scope ?? oauthConfig(ctx).scope}")`);
      expect2xx(await listMessages(ctx, {}, { bearer: token }), 'list with the access token');
    },
  }),
);

export const tokenOutsideScope = oauthCheck(
  defineCheck({
    id: 'auth.oauth.token-outside-scope',
    suite: 'auth',
    title: 'An access token granted only messages:read is refused with 403 on send',
    level: 'PROFILE',
    specRef: 'PROFILE Authentication ("limited to its granted scopes"; "A key that lacks the scope an operation needs gets 403")',
    clauses: ['§5.3', '§5.5', '§7.403'],
    owasp: ['API5:2023'],
    async run(ctx) {
      const exchanged = await requestToken(ctx, tokenFields(ctx, await requireCode(ctx, { scope: 'messages:read' })));
      const token = exchanged.json<Record<string, unknown>>()?.access_token;
      if (typeof token !== 'string') skip(`the exchange of a messages:read code issued no token (${exchanged.status})`);
      expectStatus(await sendMessage(ctx, textMessage(), { bearer: token }), [403], 'send with a token granted only messages:read');
    },
  }),
  requiresAutomatedConsent,
);

export const OAUTH_FLOW_CHECKS = [
  codeExchange,
  consentRedirect,
  stateEchoed,
  denialRedirect,
  tokenResponseRfc,
  tokenResponseFields,
  tokenNoStore,
  formEncodedExchange,
  tokenWithinScope,
  tokenOutsideScope,
];
