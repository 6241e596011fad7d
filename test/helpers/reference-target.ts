/** Helpers for reference-target tests: a controllable clock, auth headers and the OAuth dance. */
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ReferenceCredentials } from '../../src/target/types.ts';

export interface FakeClock {
  now: () => number;
  advance(ms: number): void;
  set(ms: number): void;
}

/** Starts at 2030-01-01T00:00:00.000Z unless told otherwise: a window boundary for any whole-second window. */
export function fakeClock(start = Date.parse('2030-01-01T00:00:00.000Z')): FakeClock {
  let t = start;
  return {
    now: () => t,
    advance: (ms) => {
      t += ms;
    },
    set: (ms) => {
      t = ms;
    },
  };
}

export function bearer(token: string): { authorization: string } {
  return { authorization: `Bearer ${token}` };
}

export const TEXT_MESSAGE = { to: '15551234567', type: 'text', text: { body: 'hello' } } as const;

export interface Pkce {
  verifier: string;
  challenge: string;
}

export function pkcePair(): Pkce {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export async function loginJwt(app: FastifyInstance, creds: ReferenceCredentials): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/v1/auth/login', payload: creds.login });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  return (res.json() as { token: string }).token;
}

export interface AuthorizeInput {
  scope?: string;
  state?: string;
  pkce?: Pkce;
  client?: ReferenceCredentials['oauth'];
}

/** Consents as the user (JWT) and returns the code from the redirect. */
export async function authorizeCode(app: FastifyInstance, creds: ReferenceCredentials, input: AuthorizeInput = {}): Promise<string> {
  const client = input.client ?? creds.oauth;
  const jwt = await loginJwt(app, creds);
  const res = await app.inject({
    method: 'POST',
    url: '/v1/oauth/authorize',
    headers: bearer(jwt),
    payload: {
      response_type: 'code',
      client_id: client.clientId,
      redirect_uri: client.redirectUri,
      scope: input.scope ?? 'messages:send messages:read',
      state: input.state ?? 'xyz',
      ...(input.pkce ? { code_challenge: input.pkce.challenge, code_challenge_method: 'S256' } : {}),
      decision: 'approve',
    },
  });
  if (res.statusCode !== 302) throw new Error(`consent failed: ${res.statusCode} ${res.body}`);
  const code = new URL(String(res.headers.location)).searchParams.get('code');
  if (!code) throw new Error(`no code in ${String(res.headers.location)}`);
  return code;
}

export function tokenRequest(creds: ReferenceCredentials, code: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    grant_type: 'authorization_code',
    code,
    client_id: creds.oauth.clientId,
    client_secret: creds.oauth.clientSecret,
    redirect_uri: creds.oauth.redirectUri,
    ...extra,
  };
}
