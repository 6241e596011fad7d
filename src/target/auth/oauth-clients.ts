/** Registered OAuth clients (confidential: each has a secret) and their one redirect URI each. */
import { createHash, timingSafeEqual } from 'node:crypto';
import { TargetStartError } from '../../errors/harness-errors.ts';
import type { ReferenceCredentials } from '../types.ts';

export interface OAuthClient {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}

export class OAuthClientRegistry {
  readonly #clients = new Map<string, OAuthClient>();

  constructor(credentials: ReferenceCredentials) {
    for (const client of [credentials.oauth, credentials.otherOAuthClient]) {
      // Redirects are built with new URL(); a bad configured URI must fail at start, not as a 500 mid-flow.
      if (!URL.canParse(client.redirectUri)) {
        throw new TargetStartError(`OAuth client ${client.clientId}: redirectUri is not an absolute URL`);
      }
      this.#clients.set(client.clientId, client);
    }
  }

  get(clientId: string): OAuthClient | undefined {
    return this.#clients.get(clientId);
  }

  /** The client when id and secret match (constant-time on the secret). */
  authenticate(clientId: string, clientSecret: string): OAuthClient | undefined {
    const client = this.#clients.get(clientId);
    if (!client) return undefined;
    return safeEqual(client.clientSecret, clientSecret) ? client : undefined;
  }
}

export function safeEqual(a: string, b: string): boolean {
  // Hashing first gives equal-length inputs, so the comparison's time does not reveal the secret's length.
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}
