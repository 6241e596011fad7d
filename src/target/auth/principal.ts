/** Who a request acts for, once its Bearer credential has been recognised. */
import type { Scope } from '../types.ts';

export type PrincipalKind = 'apiKey' | 'accessToken' | 'user';

/** Which rate-limit policy a principal's bucket uses. */
export type QuotaClass = 'default' | 'load';

export interface Principal {
  kind: PrincipalKind;
  /** Stable and unique per credential: names the rate-limit bucket and scopes idempotency keys. */
  id: string;
  scopes: ReadonlySet<Scope>;
  quota: QuotaClass;
  /** The account behind a JWT or an access token. */
  userId?: string;
  /**
   * The account the credential acts for (PROFILE.md "Accounts, ownership and exposure"): what it creates belongs
   * to this account, and it sees nothing of another's.
   */
  accountId: string;
}

export interface AuthState {
  principal: Principal | null;
  /** A Bearer credential was sent (valid or not): decides between the two 401 forms of RFC 6750 §3. */
  credentialSent: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthState;
  }
  interface FastifyContextConfig {
    /** The route ignores credentials and is limited per client address (login, token endpoint). */
    anonymous?: boolean;
  }
}
