import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JWT_AUDIENCE, JWT_ISSUER, JwtService } from '../../../../src/target/auth/jwt.ts';
import { buildApp, type BuiltApp } from '../../../../src/target/index.ts';
import { bearer, fakeClock, loginJwt, TEXT_MESSAGE } from '../../../helpers/reference-target.ts';

describe('API keys and scopes', () => {
  let target: BuiltApp;
  beforeAll(async () => {
    target = await buildApp();
  });
  afterAll(() => target.app.close());

  const send = (headers: Record<string, string>) =>
    target.app.inject({ method: 'POST', url: '/v1/whatsapp/messages', headers, payload: TEXT_MESSAGE });

  it('accepts every full-scope key, with the scheme in any case', async () => {
    const { full, second, load } = target.credentials.apiKeys;
    for (const key of [full, second, load]) expect((await send(bearer(key))).statusCode).toBe(201);
    expect((await send({ authorization: `bearer ${full}` })).statusCode).toBe(201);
    expect((await send({ authorization: `BEARER ${full}` })).statusCode).toBe(201);
  });

  it('401 without a credential: realm only', async () => {
    const res = await send({});
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer realm="api"');
    expect(res.json()).toMatchObject({ code: 'unauthorized' });
  });

  it('401 with invalid_token for an unknown key, a malformed header, or a key in the query string', async () => {
    for (const headers of [bearer('sk_live_nope'), { authorization: 'Bearer' }, { authorization: 'Bearer a b' }]) {
      const res = await send(headers);
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="api", error="invalid_token"');
    }
    const { full } = target.credentials.apiKeys;
    for (const url of [`/v1/whatsapp/messages?api_key=${full}`, `/v1/whatsapp/messages?access_token=${full}`]) {
      const res = await target.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="api"');
    }
  });

  it('ignores non-Bearer schemes (no credential)', async () => {
    const res = await send({ authorization: 'Basic dXNlcjpwYXNz' });
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer realm="api"');
  });

  it('403 insufficient_scope for the restricted key on send, but lets it read', async () => {
    const res = await send(bearer(target.credentials.apiKeys.restricted));
    expect(res.statusCode).toBe(403);
    expect(res.headers['www-authenticate']).toBe('Bearer error="insufficient_scope", scope="messages:send"');
    expect(res.json()).toMatchObject({ status: 403, code: 'insufficient_scope' });
    const list = await target.app.inject({ method: 'GET', url: '/v1/whatsapp/messages', headers: bearer(target.credentials.apiKeys.restricted) });
    expect(list.statusCode).toBe(200);
  });

  it('checks credentials before the body: no credential + bad body is still 401', async () => {
    const res = await target.app.inject({ method: 'POST', url: '/v1/whatsapp/messages', headers: { 'content-type': 'text/plain' }, payload: 'x' });
    expect(res.statusCode).toBe(401);
  });
});

describe('login, JWT and account', () => {
  const clock = fakeClock();
  let target: BuiltApp;
  beforeAll(async () => {
    target = await buildApp({ now: clock.now, tokens: { jwtTtlSeconds: 60 }, loginThrottle: { attempts: 3, windowSeconds: 30 } });
  });
  afterAll(() => target.app.close());

  const login = (payload: unknown) => target.app.inject({ method: 'POST', url: '/v1/auth/login', payload: payload as object });
  const account = (token: string) => target.app.inject({ method: 'GET', url: '/v1/account', headers: bearer(token) });

  it('logs in: 200 {token, expires_in seconds}, no-store, JWT claims sub iat exp iss aud', async () => {
    const res = await login(target.credentials.login);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const { token, expires_in } = res.json() as { token: string; expires_in: number };
    expect(expires_in).toBe(60);
    const [header, payload] = token.split('.').slice(0, 2).map((part) => JSON.parse(Buffer.from(part, 'base64url').toString()) as Record<string, unknown>);
    expect(header).toMatchObject({ alg: 'HS256' });
    expect(payload).toMatchObject({ iss: JWT_ISSUER, aud: JWT_AUDIENCE, iat: clock.now() / 1000, exp: clock.now() / 1000 + 60 });
    expect(payload!.sub).toEqual(expect.any(String));
  });

  it('answers an unknown email and a wrong password with identical 401 bodies', async () => {
    const wrongPassword = await login({ email: target.credentials.login.email, password: 'nope' });
    const unknownEmail = await login({ email: 'nobody@example.com', password: 'nope' });
    expect(wrongPassword.statusCode).toBe(401);
    expect(unknownEmail.statusCode).toBe(401);
    expect(unknownEmail.body).toBe(wrongPassword.body);
    await login(target.credentials.login); // clears the failure count for the next test
  });

  it('rejects missing or extra fields with 400', async () => {
    for (const body of [{}, { email: 'a@b.c' }, { password: 'x' }, { email: '', password: 'x' }, { ...target.credentials.login, remember: true }]) {
      const res = await login(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'validation_failed' });
    }
  });

  it('throttles repeated failures per email with an honest Retry-After, even for the right password', async () => {
    const email = target.credentials.login.email.toUpperCase();
    for (let i = 0; i < 3; i++) expect((await login({ email, password: 'bad' })).statusCode).toBe(401);
    clock.advance(10_000);
    const throttled = await login(target.credentials.login);
    expect(throttled.statusCode).toBe(429);
    expect(throttled.headers['retry-after']).toBe('20');
    expect(throttled.json()).toMatchObject({ code: 'rate_limited' });
    expect((await login({ email: 'other@example.com', password: 'bad' })).statusCode).toBe(401);
    clock.advance(20_000);
    expect((await login(target.credentials.login)).statusCode).toBe(200);
  });

  it('serves the account for a JWT', async () => {
    const res = await account(await loginJwt(target.app, target.credentials));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ email: target.credentials.login.email, id: expect.any(String), name: expect.any(String), plan: expect.any(String) });
  });

  it('refuses an API key on /v1/account and a JWT on messaging', async () => {
    expect((await account(target.credentials.apiKeys.full)).statusCode).toBe(401);
    const jwt = await loginJwt(target.app, target.credentials);
    const res = await target.app.inject({ method: 'POST', url: '/v1/whatsapp/messages', headers: bearer(jwt), payload: TEXT_MESSAGE });
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toContain('error="invalid_token"');
  });

  it('refuses expired, not-yet-valid, tampered and alg:none tokens', async () => {
    const jwt = await loginJwt(target.app, target.credentials);
    clock.advance(60_000);
    expect((await account(jwt)).statusCode).toBe(401);
    clock.advance(-120_000);
    expect((await account(jwt)).statusCode).toBe(401);
    clock.advance(60_000);
    expect((await account(jwt)).statusCode).toBe(200);

    const [h, p, s] = jwt.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString()) as Record<string, unknown>;
    const tampered = `${h}.${Buffer.from(JSON.stringify({ ...claims, sub: 'someone-else' })).toString('base64url')}.${s}`;
    const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${p}.`;
    for (const token of [tampered, none, `${h}.${p}.${s.slice(0, -2)}`]) {
      const res = await account(token);
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="api", error="invalid_token"');
    }
  });
});

describe('JwtService', () => {
  const key = new Uint8Array(32).fill(7);
  const clock = fakeClock();
  const service = new JwtService(60, clock.now, key);
  const iat = Math.floor(clock.now() / 1000);
  const forge = (claims: { aud?: string; iss?: string; iat?: number; nbf?: number; alg?: string }) =>
    new SignJWT({})
      .setProtectedHeader({ alg: claims.alg ?? 'HS256' })
      .setSubject('acct_1')
      .setIssuer(claims.iss ?? JWT_ISSUER)
      .setAudience(claims.aud ?? JWT_AUDIENCE)
      .setIssuedAt(claims.iat ?? iat)
      .setNotBefore(claims.nbf ?? iat)
      .setExpirationTime(iat + 60)
      .sign(key);

  it('verifies its own tokens and returns the subject', async () => {
    expect(await service.verify(await forge({}))).toBe('acct_1');
    expect(await service.verify((await service.issue('acct_2')).token)).toBe('acct_2');
  });

  it.each([
    ['wrong audience', { aud: 'https://elsewhere.example' }],
    ['wrong issuer', { iss: 'https://evil.example' }],
    ['not before in the future', { nbf: iat + 30 }],
    ['issued in the future', { iat: iat + 30 }],
    ['another HMAC algorithm', { alg: 'HS512' }],
  ])('refuses %s', async (_name, claims) => {
    expect(await service.verify(await forge(claims))).toBeNull();
  });

  it('refuses a token signed with another key', async () => {
    expect(await new JwtService(60, clock.now).verify(await forge({}))).toBeNull();
  });
});
