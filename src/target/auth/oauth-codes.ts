/**
 * Authorization codes (RFC 6749 §4.1.2): random, bound to client, redirect URI, user, scopes and PKCE challenge;
 * valid for codeTtlSeconds and single-use. Used codes are kept (not deleted) so a replay is recognised as one.
 */
import type { Scope } from '../types.ts';
import { randomToken } from '../ids.ts';

export interface AuthorizationCode {
  /** Internal id; access tokens point to it. */
  id: string;
  clientId: string;
  /** The redirect_uri sent to the authorization endpoint, when one was sent (RFC 6749 §4.1.3). */
  redirectUri: string | undefined;
  userId: string;
  scopes: ReadonlySet<Scope>;
  codeChallenge: string | undefined;
  expiresAt: number;
  used: boolean;
}

export type CodeInput = Omit<AuthorizationCode, 'id' | 'expiresAt' | 'used'>;

export class AuthorizationCodeStore {
  readonly #codes = new Map<string, AuthorizationCode>();
  #serial = 0;

  constructor(
    private readonly ttlSeconds: number,
    /** How long a used or expired code is remembered: as long as tokens issued from it may live. */
    private readonly retainSeconds: number,
    private readonly now: () => number,
  ) {}

  issue(input: CodeInput): string {
    this.#prune();
    const code = randomToken('ac_', 16);
    const expiresAt = this.now() + this.ttlSeconds * 1000;
    this.#codes.set(code, { ...input, id: `code:${++this.#serial}`, expiresAt, used: false });
    return code;
  }

  get(code: string): AuthorizationCode | undefined {
    return this.#codes.get(code);
  }

  isExpired(record: AuthorizationCode): boolean {
    return record.expiresAt <= this.now();
  }

  #prune(): void {
    const cutoff = this.now() - this.retainSeconds * 1000;
    for (const [code, record] of this.#codes) if (record.expiresAt <= cutoff) this.#codes.delete(code);
  }
}
