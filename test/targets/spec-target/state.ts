/**
 * The spec-only target's data: credentials, messages, campaigns, webhooks, OAuth codes, and its own JWTs.
 * Written from SERVICE-SPEC.md alone (see ./index.ts for the conventions it chose where the spec says "not shown").
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';

/** Permission names of this target (SERVICE-SPEC §5: "scopes or permission names: not shown"). */
export type Permission = 'messages:send' | 'messages:read' | 'campaigns:write' | 'webhooks:manage' | 'sandbox';
export const ALL_PERMISSIONS: readonly Permission[] = ['messages:send', 'messages:read', 'campaigns:write', 'webhooks:manage', 'sandbox'];

export interface SpecCredentials {
  apiKey: string;
  restrictedKey: string;
  secondKey: string;
  loadKey: string;
  email: string;
  password: string;
  oauth: { clientId: string; clientSecret: string; redirectUri: string };
  otherClient: { clientId: string; clientSecret: string; redirectUri: string };
  /** The HS256 key this target signs its JWTs with: shared with the harness only where a test deployment would. */
  jwtSigningKey: string;
  jwtIssuer: string;
  jwtAudience: string;
}

export interface ListedMessage {
  id: string;
  from: string;
  text: string;
  timestamp: string;
}

export interface Webhook {
  id: string;
  url: string;
  events: string[];
  /** A plain random string: this target keys its HMAC with the secret's raw UTF-8 bytes (no whsec_ prefix). */
  secret: string;
  created_at: string;
}

export interface IssuedCode {
  clientId: string;
  redirectUri: string;
  scope: string;
  challenge?: string;
  expiresAt: number;
  used: boolean;
  /** Access tokens issued from this code (revoked when the code is replayed). */
  tokens: string[];
}

const token = (prefix: string): string => `${prefix}${randomBytes(18).toString('base64url')}`;

export function newCredentials(): SpecCredentials {
  return {
    apiKey: token('sk_live_'),
    restrictedKey: token('sk_ro_'),
    secondKey: token('sk_live_'),
    loadKey: token('sk_load_'),
    email: 'owner@spec-target.test',
    password: token('pw-'),
    oauth: { clientId: token('app_'), clientSecret: token('cs_'), redirectUri: 'http://127.0.0.1:9/callback' },
    otherClient: { clientId: token('app_'), clientSecret: token('cs_'), redirectUri: 'http://127.0.0.1:9/other' },
    jwtSigningKey: randomBytes(32).toString('base64url'),
    jwtIssuer: 'https://spec-target.test',
    jwtAudience: 'spec-target-api',
  };
}

export class SpecState {
  readonly messages: ListedMessage[] = [];
  readonly sent = new Map<string, { id: string; to: string; status: string }>();
  readonly campaigns = new Map<string, Record<string, unknown>>();
  readonly webhooks = new Map<string, Webhook>();
  readonly codes = new Map<string, IssuedCode>();
  /** Access token → granted permissions and expiry. */
  readonly accessTokens = new Map<string, { permissions: Set<string>; expiresAt: number }>();
  readonly keyPermissions: Map<string, Set<string>>;
  readonly #key: Uint8Array;

  constructor(
    readonly credentials: SpecCredentials,
    readonly jwtTtlSeconds: number,
  ) {
    this.#key = new TextEncoder().encode(credentials.jwtSigningKey);
    this.keyPermissions = new Map([
      [credentials.apiKey, new Set(ALL_PERMISSIONS)],
      [credentials.secondKey, new Set(ALL_PERMISSIONS)],
      [credentials.loadKey, new Set(ALL_PERMISSIONS)],
      // Lacks messages:send (SERVICE-SPEC §5 rule 5: "a key lacking permissions yields 403").
      [credentials.restrictedKey, new Set(ALL_PERMISSIONS.filter((p) => p !== 'messages:send'))],
    ]);
  }

  /** A JWT for the account; `ttlSeconds` may be negative (the static-token variant's already expired token). */
  async issueJwt(ttlSeconds = this.jwtTtlSeconds): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ email: this.credentials.email })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject('acct_1')
      .setIssuer(this.credentials.jwtIssuer)
      .setAudience(this.credentials.jwtAudience)
      .setIssuedAt(now)
      .setExpirationTime(now + ttlSeconds)
      .sign(this.#key);
  }

  /** True when the JWT is ours, unexpired, already valid, for our audience and issuer. */
  async verifyJwt(jwt: string): Promise<boolean> {
    try {
      await jwtVerify(jwt, this.#key, { algorithms: ['HS256'], issuer: this.credentials.jwtIssuer, audience: this.credentials.jwtAudience, clockTolerance: 0 });
      return true;
    } catch {
      return false;
    }
  }

  addInbound(from: string, text: string, timestamp = new Date().toISOString()): ListedMessage {
    const message = { id: `in_${randomUUID()}`, from, text, timestamp };
    this.messages.push(message);
    this.messages.sort((a, b) => (a.timestamp === b.timestamp ? (a.id < b.id ? 1 : -1) : a.timestamp < b.timestamp ? 1 : -1));
    return message;
  }

  newCode(code: Omit<IssuedCode, 'used' | 'expiresAt' | 'tokens'>): string {
    const value = token('code_');
    this.codes.set(value, { ...code, used: false, tokens: [], expiresAt: Date.now() + 60_000 });
    return value;
  }
}

/** PKCE S256 (RFC 7636 §4.2). */
export function s256(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

export const newId = (prefix: string): string => `${prefix}${randomUUID()}`;
