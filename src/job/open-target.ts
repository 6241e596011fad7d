/**
 * Where a run's traffic goes: the URL the config names, or — when it names none — the embedded reference
 * target, started on 127.0.0.1 port 0 for this run only and closed afterwards. Also decides which credentials
 * are in effect: the embedded target's own, or the config's.
 */
import { randomBytes } from 'node:crypto';
import type { CredentialsConfig, FrozenConfig } from '../config/types.ts';
import type { TargetInfo } from '../conformance/context.ts';
import type { ReferenceCredentials } from '../target/types.ts';

export interface OpenTarget {
  info: TargetInfo;
  credentials: CredentialsConfig;
  close(): Promise<void>;
}

/** Scopes the automated OAuth flow asks for by default: enough for the messaging checks. */
export const DEFAULT_OAUTH_SCOPE = 'messages:send messages:read';

export async function openTarget(config: FrozenConfig): Promise<OpenTarget> {
  if (config.target.baseUrl) {
    return {
      info: { baseUrl: config.target.baseUrl.replace(/\/+$/, ''), embedded: false },
      credentials: structuredClone(config.credentials) as CredentialsConfig,
      close: async () => {},
    };
  }
  const reference = structuredClone(config.reference) as FrozenConfig['reference'];
  // The embedded target shares its JWT key with this run, so the minted-token checks (expired, not yet valid,
  // other audience, other issuer) run against it too; the key is a secret of the run like every credential.
  const jwtSigningKey = randomBytes(32).toString('base64url');
  // Loaded only here: a run with --target never pays for the reference target's server (fastify) and schemas.
  const { startReferenceTarget } = await import('../target/index.ts');
  const started = await startReferenceTarget({
    jwtSigningKey,
    ...reference,
    // Short-lived JWTs let the expired-token check wait one out instead of skipping (conformance.embeddedJwtTtlSeconds).
    tokens: { ...reference.tokens, jwtTtlSeconds: config.conformance.embeddedJwtTtlSeconds },
    host: '127.0.0.1',
    port: 0,
  });
  return {
    info: { baseUrl: started.baseUrl, embedded: true },
    credentials: { ...credentialsFromReference(started.credentials, config.credentials.oauth?.scope), jwtSigning: { alg: 'HS256', key: jwtSigningKey } },
    close: () => started.close(),
  };
}

export function credentialsFromReference(creds: ReferenceCredentials, scope = DEFAULT_OAUTH_SCOPE): CredentialsConfig {
  return {
    apiKey: creds.apiKeys.full,
    restrictedKey: creds.apiKeys.restricted,
    secondKey: creds.apiKeys.second,
    loadKey: creds.apiKeys.load,
    login: { ...creds.login },
    oauth: { ...creds.oauth, scope, consent: 'automated', pkce: true, otherClient: { ...creds.otherOAuthClient } },
    otherAccount: { apiKey: creds.otherAccount.apiKey, login: { ...creds.otherAccount.login } },
  };
}
