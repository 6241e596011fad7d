import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAjv, schemaId } from '../../../../src/schemas/registry.ts';
import { buildApp, type BuiltApp } from '../../../../src/target/index.ts';
import { authorizeCode, bearer, fakeClock, loginJwt, pkcePair, TEXT_MESSAGE, tokenRequest } from '../../../helpers/reference-target.ts';

const ajv = createAjv();
const isTokenResponse = ajv.getSchema(schemaId('oauth-token-response'))!;
const isOAuthError = ajv.getSchema(schemaId('oauth-error'))!;

describe('OAuth2 authorization code + PKCE', () => {
  const clock = fakeClock();
  let target: BuiltApp;
  beforeAll(async () => {
    target = await buildApp({ now: clock.now, tokens: { codeTtlSeconds: 30, accessTokenTtlSeconds: 120 } });
  });
  afterAll(() => target.app.close());

  const token = (payload: Record<string, string>, form = false) =>
    target.app.inject({
      method: 'POST',
      url: '/v1/oauth/token',
      ...(form
        ? { headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(payload).toString() }
        : { payload }),
    });
  const expectOAuthError = (res: { statusCode: number; headers: Record<string, unknown>; json(): unknown }, status: number, error: string) => {
    expect(res.statusCode).toBe(status);
    expect(res.json()).toMatchObject({ error });
    expect(isOAuthError(res.json())).toBe(true);
    expect(res.headers['cache-control']).toBe('no-store');
  };
  const authorizeQuery = (extra: Record<string, string> = {}) =>
    new URLSearchParams({
      response_type: 'code',
      client_id: target.credentials.oauth.clientId,
      redirect_uri: target.credentials.oauth.redirectUri,
      scope: 'messages:read',
      state: 's1',
      ...extra,
    }).toString();

  describe('authorization endpoint', () => {
    it('serves a login-and-consent page that escapes every echoed parameter', async () => {
      const res = await target.app.inject({ method: 'GET', url: `/v1/oauth/authorize?${authorizeQuery({ state: '"><script>alert(1)</script>' })}` });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.body).toContain('name="decision" value="approve"');
      expect(res.body).not.toContain('<script>');
      expect(res.body).toContain('&quot;&gt;&lt;script&gt;');
    });

    it('answers an unknown client or unregistered redirect_uri with 400, never a redirect', async () => {
      for (const query of [authorizeQuery({ client_id: 'nope' }), authorizeQuery({ redirect_uri: 'https://evil.example/cb' })]) {
        const res = await target.app.inject({ method: 'GET', url: `/v1/oauth/authorize?${query}` });
        expect(res.statusCode).toBe(400);
        expect(res.headers.location).toBeUndefined();
      }
    });

    it.each([
      ['unsupported_response_type', { response_type: 'token' }],
      ['invalid_scope', { scope: 'messages:read admin' }],
      ['invalid_request', { code_challenge: 'x'.repeat(43), code_challenge_method: 'plain' }],
      ['invalid_request', { code_challenge: 'short', code_challenge_method: 'S256' }],
    ])('redirects %s errors back to the client with state', async (error, extra) => {
      const res = await target.app.inject({ method: 'GET', url: `/v1/oauth/authorize?${authorizeQuery(extra)}` });
      expect(res.statusCode).toBe(302);
      const location = new URL(String(res.headers.location));
      expect(`${location.origin}${location.pathname}`).toBe(target.credentials.oauth.redirectUri);
      expect(location.searchParams.get('error')).toBe(error);
      expect(location.searchParams.get('state')).toBe('s1');
    });

    it('redirects with access_denied on deny, and needs a signed-in user', async () => {
      const jwt = await loginJwt(target.app, target.credentials);
      const params = Object.fromEntries(new URLSearchParams(authorizeQuery()));
      const denied = await target.app.inject({ method: 'POST', url: '/v1/oauth/authorize', headers: bearer(jwt), payload: { ...params, decision: 'deny' } });
      expect(denied.statusCode).toBe(302);
      const location = new URL(String(denied.headers.location));
      expect(location.searchParams.get('error')).toBe('access_denied');
      expect(location.searchParams.get('state')).toBe('s1');
      const anonymous = await target.app.inject({ method: 'POST', url: '/v1/oauth/authorize', payload: { ...params, decision: 'approve' } });
      expect(anonymous.statusCode).toBe(401);
      const withKey = await target.app.inject({ method: 'POST', url: '/v1/oauth/authorize', headers: bearer(target.credentials.apiKeys.full), payload: { ...params, decision: 'approve' } });
      expect(withKey.statusCode).toBe(401);
    });

    it('accepts the HTML form: email and password, form-encoded', async () => {
      const form = new URLSearchParams({ ...Object.fromEntries(new URLSearchParams(authorizeQuery())), ...target.credentials.login, decision: 'approve' });
      const res = await target.app.inject({ method: 'POST', url: '/v1/oauth/authorize', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: form.toString() });
      expect(res.statusCode).toBe(302);
      expect(new URL(String(res.headers.location)).searchParams.get('code')).toMatch(/^ac_/);
    });
  });

  describe('token endpoint', () => {
    it('exchanges a code (JSON or form) for an access token that acts within its scopes', async () => {
      const pkce = pkcePair();
      const code = await authorizeCode(target.app, target.credentials, { scope: 'messages:read', pkce });
      const res = await token(tokenRequest(target.credentials, code, { code_verifier: pkce.verifier }), true);
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers.pragma).toBe('no-cache');
      expect(isTokenResponse(res.json())).toBe(true);
      const body = res.json() as { access_token: string; token_type: string; expires_in: number; scope: string };
      expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 120, scope: 'messages:read' });

      const access = bearer(body.access_token);
      expect((await target.app.inject({ method: 'GET', url: '/v1/whatsapp/messages', headers: access })).statusCode).toBe(200);
      const send = await target.app.inject({ method: 'POST', url: '/v1/whatsapp/messages', headers: access, payload: TEXT_MESSAGE });
      expect(send.statusCode).toBe(403);
      expect(send.headers['www-authenticate']).toContain('scope="messages:send"');
      expect((await target.app.inject({ method: 'GET', url: '/v1/account', headers: access })).statusCode).toBe(200);
    });

    it('accepts HTTP Basic client authentication', async () => {
      const code = await authorizeCode(target.app, target.credentials);
      const { clientId, clientSecret } = target.credentials.oauth;
      const res = await target.app.inject({
        method: 'POST',
        url: '/v1/oauth/token',
        headers: { authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}` },
        payload: { grant_type: 'authorization_code', code },
      });
      expect(res.statusCode).toBe(200);
    });

    it('makes codes single-use: reuse is invalid_grant and revokes the tokens issued from the code', async () => {
      const code = await authorizeCode(target.app, target.credentials);
      const first = await token(tokenRequest(target.credentials, code));
      const access = bearer((first.json() as { access_token: string }).access_token);
      expect((await target.app.inject({ method: 'GET', url: '/v1/whatsapp/messages', headers: access })).statusCode).toBe(200);
      expectOAuthError(await token(tokenRequest(target.credentials, code)), 400, 'invalid_grant');
      expect((await target.app.inject({ method: 'GET', url: '/v1/whatsapp/messages', headers: access })).statusCode).toBe(401);
    });

    it('expires codes after codeTtlSeconds and access tokens after accessTokenTtlSeconds', async () => {
      const stale = await authorizeCode(target.app, target.credentials);
      clock.advance(30_000);
      expectOAuthError(await token(tokenRequest(target.credentials, stale)), 400, 'invalid_grant');

      const fresh = await authorizeCode(target.app, target.credentials);
      const access = bearer(((await token(tokenRequest(target.credentials, fresh))).json() as { access_token: string }).access_token);
      clock.advance(120_000);
      expect((await target.app.inject({ method: 'GET', url: '/v1/whatsapp/messages', headers: access })).statusCode).toBe(401);
    });

    it.each([
      ['a wrong PKCE verifier', { code_verifier: 'w'.repeat(43) }],
      ['a missing PKCE verifier', {}],
      ['a mismatched redirect_uri', { redirect_uri: 'http://127.0.0.1/elsewhere' }],
    ])('answers invalid_grant to %s', async (_name, extra) => {
      const code = await authorizeCode(target.app, target.credentials, { pkce: pkcePair() });
      expectOAuthError(await token(tokenRequest(target.credentials, code, extra)), 400, 'invalid_grant');
    });

    it('answers invalid_grant to an unknown code and to another client\'s code', async () => {
      expectOAuthError(await token(tokenRequest(target.credentials, 'ac_unknown')), 400, 'invalid_grant');
      const code = await authorizeCode(target.app, target.credentials, { client: target.credentials.otherOAuthClient });
      expectOAuthError(await token(tokenRequest(target.credentials, code)), 400, 'invalid_grant');
    });

    it('answers invalid_client 401 with WWW-Authenticate for bad or missing client credentials', async () => {
      for (const extra of [{ client_secret: 'wrong' }, { client_id: 'nope' }] as Record<string, string>[]) {
        const res = await token(tokenRequest(target.credentials, 'ac_x', extra));
        expectOAuthError(res, 401, 'invalid_client');
        expect(res.headers['www-authenticate']).toMatch(/^Basic /);
      }
      const { client_secret: _omitted, ...noSecret } = tokenRequest(target.credentials, 'ac_x');
      expectOAuthError(await token(noSecret), 401, 'invalid_client');
    });

    it('answers unsupported_grant_type and invalid_request', async () => {
      expectOAuthError(await token(tokenRequest(target.credentials, 'x', { grant_type: 'password' })), 400, 'unsupported_grant_type');
      const { code: _code, ...noCode } = tokenRequest(target.credentials, 'x');
      expectOAuthError(await token(noCode), 400, 'invalid_request');
      const { grant_type: _grant, ...noGrant } = tokenRequest(target.credentials, 'x');
      expectOAuthError(await token(noGrant), 400, 'invalid_request');
      const repeated = await target.app.inject({ method: 'POST', url: '/v1/oauth/token', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'grant_type=authorization_code&code=a&code=b' });
      expectOAuthError(repeated, 400, 'invalid_request');
      const text = await target.app.inject({ method: 'POST', url: '/v1/oauth/token', headers: { 'content-type': 'text/plain' }, payload: 'x' });
      expectOAuthError(text, 415, 'invalid_request');
    });
  });
});
