/** Auth / OAuth2 token errors: the token endpoint refuses what RFC 6749 §5.2 and RFC 7636 §4.6 say it must. */
import { randomBytes } from 'node:crypto';
import { defineCheck } from '../../src/conformance/check.ts';
import { fail, skip } from '../../src/conformance/outcomes.ts';
import { expectStatus } from '../../src/conformance/expect.ts';
import { getAccount } from '../../src/conformance/operations.ts';
import { requiresProfile } from '../../src/conformance/preconditions.ts';
import type { HttpResponse } from '../../src/http/client.ts';
import { expectOAuthError, oauthCheck, oauthConfig, requestToken, requireCode, requiresOtherClient, tokenFields } from '../lib/oauth-client.ts';

/** The access token of a granted exchange; skipped when the exchange itself was refused (another check's finding). */
function grantedToken(res: HttpResponse): string {
  const token = res.json<Record<string, unknown>>()?.access_token;
  if (res.status < 200 || res.status > 299 || typeof token !== 'string') skip(`the first exchange of a fresh code was refused (${res.status}), so its replay shows nothing`);
  return token;
}

export const codeReuseRejected = oauthCheck(
  defineCheck({
    id: 'auth.oauth.code-reuse-rejected',
    suite: 'auth',
    title: 'An authorization code is single-use: a second exchange of it is refused with invalid_grant',
    level: 'SHOULD',
    specRef: 'RFC 6749 §4.1.2 ("MUST NOT use the authorization code more than once"), §5.2 (invalid_grant)',
    clauses: ['§5.3'],
    owasp: ['API2:2023'],
    async run(ctx) {
      const fields = tokenFields(ctx, await requireCode(ctx));
      grantedToken(await requestToken(ctx, fields));
      expectOAuthError(await requestToken(ctx, fields), [400], 'invalid_grant', 'second exchange of the same code');
    },
  }),
);

export const codeReuseRevokes = oauthCheck(
  defineCheck({
    id: 'auth.oauth.code-reuse-revokes-tokens',
    suite: 'auth',
    title: 'Replaying a used code revokes the access token issued from it',
    level: 'SHOULD',
    specRef: 'RFC 6749 §4.1.2 ("SHOULD revoke … all tokens previously issued based on that authorization code"), §10.5',
    clauses: ['§5.3'],
    owasp: ['API2:2023'],
    async run(ctx) {
      const fields = tokenFields(ctx, await requireCode(ctx));
      const token = grantedToken(await requestToken(ctx, fields));
      const before = await getAccount(ctx, token);
      if (before.status < 200 || before.status > 299) skip(`the fresh access token is not accepted on the account read (${before.status}), so its revocation cannot be observed there`);
      await requestToken(ctx, fields);
      expectStatus(await getAccount(ctx, token), [401], 'account read with the access token after its code was replayed');
    },
  }),
);

/**
 * A wrong client_secret is an invalid credential. SERVICE-SPEC §2.7 puts client_id and client_secret in the token
 * exchange, §4 says its credentials travel in the body, and §5 rule 5 says invalid credentials yield 401: refusing
 * it with 401 (and granting nothing) is the spec's own rule, so MUST. The OAuth error code in the body is RFC 6749
 * §5.2's, a check of its own at SHOULD, so a target that only words its refusal differently is not held at MUST.
 */
export const wrongClientSecret = oauthCheck(
  defineCheck({
    id: 'auth.oauth.wrong-client-secret',
    suite: 'auth',
    title: 'A code exchange with a wrong client secret is refused with 401 and grants no token',
    level: 'MUST',
    specRef: 'SERVICE-SPEC §5 rule 5 ("invalid credentials yield 401") for the client credentials that §2.7 and §4 put in the token request body',
    clauses: ['§2.7', '§4.oauth-token', '§5.5'],
    async run(ctx) {
      const fields = tokenFields(ctx, await requireCode(ctx));
      const wrong = `cs_wrong_${randomBytes(16).toString('hex')}`;
      const res = await requestToken(ctx, { ...fields, client_secret: wrong });
      const token = res.json<Record<string, unknown>>()?.access_token;
      if (res.status >= 200 && res.status < 300) fail(`code exchange with a wrong client_secret: expected 401, got ${res.status} — the request was granted${typeof token === 'string' ? ' (an access_token came back)' : ''}`, { expected: { status: 401 }, actual: { status: res.status } });
      expectStatus(res, [401], 'code exchange with a wrong client_secret');
    },
  }),
);

export const wrongClientSecretError = oauthCheck(
  defineCheck({
    id: 'auth.oauth.wrong-client-secret-error',
    suite: 'auth',
    title: 'A code exchange with a wrong client secret names the error invalid_client',
    level: 'SHOULD',
    specRef: 'RFC 6749 §5.2 (invalid_client; 401, or 400 for credentials sent in the body), §3.2.1',
    clauses: ['§2.7', '§4.oauth-token'],
    owasp: ['API2:2023'],
    async run(ctx) {
      const fields = tokenFields(ctx, await requireCode(ctx));
      const wrong = `cs_wrong_${randomBytes(16).toString('hex')}`;
      const res = await requestToken(ctx, { ...fields, client_secret: wrong });
      // Granting is auth.oauth.wrong-client-secret's (MUST) finding; this check judges only how a refusal is worded.
      if (res.status >= 200 && res.status < 300) skip(`the exchange was granted (${res.status}), so there is no refusal whose error to read (auth.oauth.wrong-client-secret reports it)`);
      expectOAuthError(res, [401, 400], 'invalid_client', 'code exchange with a wrong client_secret');
    },
  }),
);

export const redirectUriMismatch = oauthCheck(
  defineCheck({
    id: 'auth.oauth.redirect-uri-mismatch',
    suite: 'auth',
    title: 'A code exchange whose redirect_uri differs from the authorization request\'s is refused with invalid_grant',
    level: 'SHOULD',
    specRef: 'RFC 6749 §4.1.3 (redirect_uri must be identical), §5.2 (invalid_grant)',
    clauses: ['§5.3'],
    owasp: ['API2:2023'],
    async run(ctx) {
      const fields = tokenFields(ctx, await requireCode(ctx));
      const other = new URL(oauthConfig(ctx).redirectUri);
      other.pathname = `${other.pathname.replace(/\/$/, '')}-harness-mismatch`;
      expectOAuthError(await requestToken(ctx, { ...fields, redirect_uri: other.toString() }), [400], 'invalid_grant', 'code exchange with another redirect_uri');
    },
  }),
);

export const wrongPkceVerifier = oauthCheck(
  defineCheck({
    id: 'auth.oauth.pkce-verifier-checked',
    suite: 'auth',
    title: 'A code issued for a PKCE challenge is refused with invalid_grant when the verifier is wrong or missing',
    level: 'SHOULD',
    specRef: 'RFC 7636 §4.6 (verify code_verifier), §4.4.1 (invalid_grant)',
    clauses: ['§5.3'],
    owasp: ['API2:2023'],
    async run(ctx) {
      const wrong = randomBytes(32).toString('base64url');
      const wrongFields = tokenFields(ctx, await requireCode(ctx, { pkce: true }));
      expectOAuthError(await requestToken(ctx, { ...wrongFields, code_verifier: wrong }), [400], 'invalid_grant', 'code exchange with a wrong code_verifier');
      const missingFields = tokenFields(ctx, await requireCode(ctx, { pkce: true }));
      expectOAuthError(await requestToken(ctx, { ...missingFields, code_verifier: undefined }), [400], 'invalid_grant', 'code exchange without the code_verifier');
    },
  }),
  requiresProfile('pkce'),
);

export const otherClientCode = oauthCheck(
  defineCheck({
    id: 'auth.oauth.other-client-code',
    suite: 'auth',
    title: 'A code issued to one client is refused with invalid_grant when another client exchanges it',
    level: 'SHOULD',
    specRef: 'RFC 6749 §4.1.3 (the code was issued to the authenticated client), §5.2 (invalid_grant)',
    clauses: ['§5.3'],
    owasp: ['API2:2023'],
    async run(ctx) {
      const fields = tokenFields(ctx, await requireCode(ctx), oauthConfig(ctx).otherClient!);
      expectOAuthError(await requestToken(ctx, fields), [400], 'invalid_grant', 'exchange by credentials.oauth.otherClient of a code issued to credentials.oauth');
    },
  }),
  requiresOtherClient,
);

export const unsupportedGrantType = oauthCheck(
  defineCheck({
    id: 'auth.oauth.unsupported-grant-type',
    suite: 'auth',
    title: 'A token request with a grant type the server does not support is refused with unsupported_grant_type',
    level: 'SHOULD',
    specRef: 'RFC 6749 §5.2 (unsupported_grant_type)',
    clauses: ['§4.oauth-token'],
    async run(ctx) {
      const { clientId, clientSecret } = oauthConfig(ctx);
      // An extension grant URI no server defines (RFC 6749 §4.5), not client_credentials or password, which a server may support.
      const fields = { grant_type: 'urn:example:harness:grant-type:unsupported', client_id: clientId, client_secret: clientSecret };
      expectOAuthError(await requestToken(ctx, fields), [400], 'unsupported_grant_type', 'token request with an unknown grant_type');
    },
  }),
);

export const missingParameter = oauthCheck(
  defineCheck({
    id: 'auth.oauth.missing-parameter',
    suite: 'auth',
    title: 'A token request without grant_type, or without code, is refused with invalid_request',
    level: 'SHOULD',
    specRef: 'RFC 6749 §5.2 (invalid_request: "missing a required parameter")',
    clauses: ['§2.7', '§4.oauth-token'],
    async run(ctx) {
      const { clientId, clientSecret } = oauthConfig(ctx);
      const client = { client_id: clientId, client_secret: clientSecret };
      expectOAuthError(await requestToken(ctx, { ...client, code: `ac_missing_${randomBytes(8).toString('hex')}` }), [400], 'invalid_request', 'token request without grant_type');
      expectOAuthError(await requestToken(ctx, { ...client, grant_type: 'authorization_code' }), [400], 'invalid_request', 'token request without code');
    },
  }),
);

export const OAUTH_ERROR_CHECKS = [
  codeReuseRejected,
  codeReuseRevokes,
  wrongClientSecret,
  wrongClientSecretError,
  redirectUriMismatch,
  wrongPkceVerifier,
  otherClientCode,
  unsupportedGrantType,
  missingParameter,
];
