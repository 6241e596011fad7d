/**
 * Faulty targets for the auth checks: each breaks one authentication rule in front of a correct reference
 * target, and names exactly the checks that must catch it.
 */
import type { FaultCase } from '../fault-case.ts';
import { jsonBody, withJson, type FaultTools, type ProxyRequest, type ProxyResponse } from '../faulty-proxy.ts';

const AUTH = ['auth'];
const SEND_PATH = '/v1/whatsapp/messages';
const LOGIN_PATH = '/v1/auth/login';
const AUTHORIZE_PATH = '/v1/oauth/authorize';
const TOKEN_PATH = '/v1/oauth/token';

const pathOf = (req: ProxyRequest): string => req.path.split('?')[0]!;

function bearerOf(req: ProxyRequest): string | undefined {
  return /^bearer +(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
}

/** Header and claims of a JWS-shaped token, unverified; undefined for anything else. */
function jwsOf(token: string | undefined): { header: Record<string, unknown>; claims: Record<string, unknown> } | undefined {
  const parts = token?.split('.');
  if (parts?.length !== 3) return undefined;
  try {
    const decode = (s: string) => JSON.parse(Buffer.from(s, 'base64url').toString('utf8')) as Record<string, unknown>;
    return { header: decode(parts[0]!), claims: decode(parts[1]!) };
  } catch {
    return undefined;
  }
}

/** A valid JWT for the reference's own account, from the reference itself. */
async function freshJwt(tools: FaultTools): Promise<string> {
  const res = await tools.forward({ method: 'POST', path: LOGIN_PATH, headers: { 'content-type': 'application/json' }, body: JSON.stringify(tools.reference.credentials.login) });
  return jsonBody<{ token: string }>(res).token;
}

async function withCredential(req: ProxyRequest, credential: string): Promise<ProxyRequest> {
  return { ...req, headers: { ...req.headers, authorization: `Bearer ${credential}` } };
}

/** The body parameters of a JSON or form request, and a way to write them back in the same encoding. */
function bodyParams(req: ProxyRequest): { params: Record<string, string>; write(params: Record<string, string>): ProxyRequest } {
  const form = (req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');
  const params: Record<string, string> = form ? Object.fromEntries(new URLSearchParams(req.body)) : req.body ? JSON.parse(req.body) : {};
  return {
    params,
    write: (next) => ({ ...req, body: form ? new URLSearchParams(next).toString() : JSON.stringify(next) }),
  };
}

function without(params: Record<string, string>, ...names: string[]): Record<string, string> {
  return Object.fromEntries(Object.entries(params).filter(([name]) => !names.includes(name)));
}

function dropHeaders(res: ProxyResponse, ...names: string[]): ProxyResponse {
  return { ...res, headers: Object.fromEntries(Object.entries(res.headers).filter(([name]) => !names.includes(name.toLowerCase()))) };
}

export const AUTH_FAULTS: FaultCase[] = [
  {
    name: 'a missing credential is answered 403 instead of 401',
    suites: AUTH,
    fault: {
      onResponse(req, res) {
        const anonymous = req.headers.authorization === undefined;
        return anonymous && res.status === 401 && jsonBody(res).code === 'unauthorized' ? { ...res, status: 403, body: JSON.stringify({ ...jsonBody(res), status: 403 }) } : res;
      },
    },
    // The query-string key is "no credential" too (PROFILE: ignored, 401); the challenge check has no 401 to read and skips.
    failing: ['auth.api-key.missing-credential', 'auth.jwt.account-without-credential', 'auth.api-key.query-string-ignored'],
    verdict: 'not-certified',
  },
  {
    name: 'an expired JWT is accepted',
    suites: AUTH,
    fault: {
      // 2-second JWTs so the check can wait one out; the proxy then passes a fresh token in the expired one's place.
      reference: { tokens: { jwtTtlSeconds: 2, accessTokenTtlSeconds: 3600, codeTtlSeconds: 60 } },
      async onRequest(req, tools) {
        const exp = jwsOf(bearerOf(req))?.claims.exp;
        return typeof exp === 'number' && exp * 1000 <= Date.now() ? withCredential(req, await freshJwt(tools)) : req;
      },
    },
    failing: ['auth.jwt.expired-rejected'],
    verdict: 'not-certified',
  },
  {
    name: 'an unsigned alg "none" JWT is accepted',
    suites: AUTH,
    fault: {
      async onRequest(req, tools) {
        const alg = jwsOf(bearerOf(req))?.header.alg;
        return typeof alg === 'string' && alg.toLowerCase() === 'none' ? withCredential(req, await freshJwt(tools)) : req;
      },
    },
    failing: ['auth.jwt.alg-none-rejected'],
    verdict: 'not-certified',
  },
  {
    name: 'a valid key without the send permission may send',
    suites: AUTH,
    fault: {
      onRequest(req, tools) {
        const { restricted, full } = tools.reference.credentials.apiKeys;
        return req.method === 'POST' && pathOf(req) === SEND_PATH && bearerOf(req) === restricted ? withCredential(req, full) : req;
      },
    },
    // The insufficient_scope challenge check has no 403 to read and skips.
    failing: ['auth.api-key.restricted-key-forbidden'],
    verdict: 'not-certified',
  },
  {
    name: 'a 401 carries no WWW-Authenticate challenge',
    suites: AUTH,
    fault: { onResponse: (_req, res) => (res.status === 401 ? dropHeaders(res, 'www-authenticate') : res) },
    failing: ['auth.challenge.bearer-on-401', 'auth.challenge.invalid-token-on-401'],
    verdict: 'selection-passed',
  },
  {
    name: 'login hands a token to anyone who knows the email (any password works)',
    suites: AUTH,
    fault: {
      onRequest(req, tools) {
        if (req.method !== 'POST' || pathOf(req) !== LOGIN_PATH) return req;
        const body = bodyParams(req);
        const { email, password } = tools.reference.credentials.login;
        return body.params.email?.toLowerCase() === email.toLowerCase() ? body.write({ ...body.params, password }) : req;
      },
    },
    // The MUST rule (no token without the password) and the PROFILE 401; the SHOULD no-enumeration check sees the
    // wrong password accepted while the unknown email is refused.
    failing: ['auth.jwt.bad-login-no-token', 'auth.jwt.bad-login-401', 'auth.jwt.bad-login-no-enumeration'],
    verdict: 'not-certified',
  },
  {
    name: 'login tells an unknown email from a wrong password',
    suites: AUTH,
    fault: {
      onResponse(req, res, tools) {
        if (pathOf(req) !== LOGIN_PATH || res.status !== 401) return res;
        const known = bodyParams(req).params.email?.toLowerCase() === tools.reference.credentials.login.email.toLowerCase();
        return known ? res : withJson(res, { ...jsonBody<Record<string, unknown>>(res), detail: 'No account is registered with this email.' });
      },
    },
    failing: ['auth.jwt.bad-login-no-enumeration'],
    verdict: 'selection-passed',
  },
  {
    name: 'an authorization code can be exchanged twice',
    suites: AUTH,
    fault: {
      // The proxy remembers each code's first token answer and replays it, so the reference never sees the reuse.
      onRequest(req, tools) {
        if (req.method !== 'POST' || pathOf(req) !== TOKEN_PATH) return req;
        const cached = tools.state.get(`token:${bodyParams(req).params.code}`) as ProxyResponse | undefined;
        return cached ?? req;
      },
      onResponse(req, res, tools) {
        if (req.method === 'POST' && pathOf(req) === TOKEN_PATH && res.status === 200) tools.state.set(`token:${bodyParams(req).params.code}`, res);
        return res;
      },
    },
    failing: ['auth.oauth.code-reuse-rejected', 'auth.oauth.code-reuse-revokes-tokens'],
    verdict: 'selection-passed',
  },
  {
    name: 'a wrong or missing PKCE verifier is accepted',
    suites: AUTH,
    fault: {
      // Codes are issued without the challenge, and verifiers never reach the reference: PKCE is not enforced.
      onRequest(req) {
        if (req.method !== 'POST') return req;
        if (pathOf(req) === AUTHORIZE_PATH) {
          const body = bodyParams(req);
          return body.write(without(body.params, 'code_challenge', 'code_challenge_method'));
        }
        if (pathOf(req) === TOKEN_PATH) {
          const body = bodyParams(req);
          return body.write(without(body.params, 'code_verifier'));
        }
        return req;
      },
    },
    failing: ['auth.oauth.pkce-verifier-checked'],
    verdict: 'selection-passed',
  },
  {
    name: 'the token endpoint ignores client_secret',
    suites: AUTH,
    fault: {
      // Every code exchange reaches the reference with the client's true secret, whatever the client sent.
      onRequest(req, tools) {
        if (req.method !== 'POST' || pathOf(req) !== TOKEN_PATH) return req;
        const body = bodyParams(req);
        const { oauth, otherOAuthClient } = tools.reference.credentials;
        const client = [oauth, otherOAuthClient].find((c) => c.clientId === body.params.client_id);
        return client ? body.write({ ...body.params, client_secret: client.clientSecret }) : req;
      },
    },
    // SERVICE-SPEC §5 rule 5 (invalid credentials: 401) at MUST; the RFC 6749 error code at SHOULD.
    failing: ['auth.oauth.wrong-client-secret'],
    verdict: 'not-certified',
  },
  {
    name: 'the token response may be cached',
    suites: AUTH,
    fault: { onResponse: (req, res) => (pathOf(req) === TOKEN_PATH && res.status === 200 ? dropHeaders(res, 'cache-control', 'pragma') : res) },
    failing: ['auth.oauth.token-no-store'],
    verdict: 'selection-passed',
  },
];
