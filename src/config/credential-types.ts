/**
 * The credentials a config gives the harness (API keys, login, OAuth clients, a JWT signing key for the
 * expiry checks) and the OAuth client shape the reference target's fixed credentials reuse.
 */

export type ConsentMode = 'automated' | 'code' | 'command';

export interface OAuthClientConfig {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}

export interface OAuthConfig extends OAuthClientConfig {
  /** Space-separated scopes to request. @default "messages:send messages:read" */
  scope: string;
  /**
   * How step (b) of §5 rule 3 (the user approves) is done:
   * `automated` POSTs consent with the user's JWT (PROFILE.md); `code` uses `code` as given;
   * `command` runs `codeCommand` and reads the code from its first output line.
   * @default "automated"
   */
  consent: ConsentMode;
  code?: string;
  codeCommand?: string;
  /** Use PKCE S256 in the automated flow. @default true */
  pkce: boolean;
  /** A second registered client, for the "other client's code" check. Optional. */
  otherClient?: OAuthClientConfig;
}

/**
 * Credentials for a target given by `target.baseUrl`. The loader turns empty strings into absent members and
 * drops sections left empty, so a member that is present is usable: `login` has both fields, `oauth` has its
 * three client fields (and `scope`, `consent`, `pkce` filled from their defaults).
 */
export interface CredentialsConfig {
  /** Key with every scope the suites need (messages:send, messages:read, campaigns:write, webhooks:manage, sandbox). */
  apiKey?: string;
  /** Key that lacks `messages:send` (for the 403 check, §5 rule 5). */
  restrictedKey?: string;
  /** Another full key, for isolation checks (one credential's exhaustion never throttles another). */
  secondKey?: string;
  /** Key whose quota does not bind, for throughput scenarios. */
  loadKey?: string;
  login?: { email: string; password: string };
  oauth?: OAuthConfig;
  /**
   * For a test deployment that shares its JWT signing key: the harness mints expired, not-yet-valid,
   * other-audience and other-issuer tokens with it (suites/auth/jwt-minted.ts). `key` is a secret. Optional;
   * without it those checks skip and say why. Dropped when `key` is empty.
   */
  jwtSigning?: JwtSigningConfig;
  /**
   * A second account's credentials, for the ownership checks (suites/ownership): its credential must never read,
   * list or delete what the first account created. `apiKey` is a secret, so is `login.password`. Optional;
   * without `apiKey` a multi-account target's certification is incomplete.
   */
  otherAccount?: { apiKey?: string; login?: { email: string; password: string } };
}

export interface JwtSigningConfig {
  /** HMAC algorithm the target verifies with. @default "HS256" */
  alg: 'HS256' | 'HS384' | 'HS512';
  /** The shared key, as UTF-8 text (a secret). */
  key: string;
  /** `iss` the target expects; when unset the claim is copied from a token it issued. */
  issuer?: string;
  /** `aud` the target expects; when unset the claim is copied from a token it issued. */
  audience?: string;
}
