/**
 * A small JWT login target written from SERVICE-SPEC §2.6 and §5 alone (login → {token, expires_in}; the JWT as
 * Bearer on GET /v1/account; invalid credentials → 401), with its own key, issuer and audience, on 127.0.0.1
 * port 0. Variants seed the faults the JWT checks must name: a static token that is expired when issued, long
 * lifetimes (so expiry cannot be waited out), and verification that ignores exp, nbf, aud or iss.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, jwtVerify } from 'jose';

export interface JwtTargetOptions {
  /** Lifetime of issued tokens in seconds. @default 3600 */
  ttlSeconds?: number;
  /** Login hands out one static token whose exp lies an hour in the past. */
  staticExpired?: boolean;
  /** Claims the verifier does not check. */
  ignore?: Array<'exp' | 'nbf' | 'aud' | 'iss'>;
}

export interface JwtTarget {
  baseUrl: string;
  login: { email: string; password: string };
  /** The signing key (UTF-8), for configs that share it. */
  key: string;
  issuer: string;
  audience: string;
  close(): Promise<void>;
}

const ISSUER = 'https://jwt-target.test/issuer';
const AUDIENCE = 'jwt-target-api';

export async function startJwtTarget(options: JwtTargetOptions = {}): Promise<JwtTarget> {
  const key = randomBytes(24).toString('hex');
  const secret = new TextEncoder().encode(key);
  const login = { email: 'tester@example.com', password: `pw-${randomBytes(6).toString('hex')}` };
  const ttl = options.ttlSeconds ?? 3600;
  const ignore = new Set(options.ignore ?? []);
  const sign = (iat: number, exp: number) =>
    new SignJWT({}).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setSubject('user-1').setIssuer(ISSUER).setAudience(AUDIENCE).setIssuedAt(iat).setExpirationTime(exp).sign(secret);
  const now = () => Math.floor(Date.now() / 1000);
  const staticToken = options.staticExpired ? await sign(now() - 7200, now() - 3600) : undefined;

  async function verify(token: string): Promise<boolean> {
    try {
      // Far-off clock tolerance switches a claim's time check off; absent options switch iss/aud checks off.
      const { payload } = await jwtVerify(token, secret, {
        algorithms: ['HS256'],
        ...(ignore.has('iss') ? {} : { issuer: ISSUER }),
        ...(ignore.has('aud') ? {} : { audience: AUDIENCE }),
        ...(ignore.has('exp') || ignore.has('nbf') ? { clockTolerance: 10 * 365 * 86_400 } : {}),
      });
      if (ignore.has('exp') && !ignore.has('nbf') && typeof payload.nbf === 'number' && payload.nbf > now()) return false;
      if (ignore.has('nbf') && !ignore.has('exp') && typeof payload.exp === 'number' && payload.exp <= now()) return false;
      return true;
    } catch {
      return false;
    }
  }

  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const path = (req.url ?? '').split('?')[0];
    if (req.method === 'POST' && path === '/v1/auth/login') {
      let body: { email?: unknown; password?: unknown } = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as typeof body;
      } catch {
        return send(res, 400, { error: 'malformed JSON' });
      }
      if (typeof body.email !== 'string' || typeof body.password !== 'string') return send(res, 400, { error: 'email and password are required' });
      if (body.email !== login.email || body.password !== login.password) return send(res, 401, { error: 'invalid credentials' });
      return send(res, 200, { token: staticToken ?? (await sign(now(), now() + ttl)), expires_in: ttl });
    }
    if (req.method === 'GET' && path === '/v1/account') {
      const match = /^Bearer (.+)$/.exec(req.headers.authorization ?? '');
      if (!match || !(await verify(match[1]!))) return send(res, 401, { error: 'invalid credentials' });
      return send(res, 200, { id: 'user-1', email: login.email, name: 'Tester', plan: 'free', created_at: '2026-01-01T00:00:00Z' });
    }
    return send(res, 404, { error: 'not found' });
  }

  const server = createServer((req, res) => void handle(req, res).catch(() => send(res, 500, { error: 'internal' })));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    login,
    key,
    issuer: ISSUER,
    audience: AUDIENCE,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
