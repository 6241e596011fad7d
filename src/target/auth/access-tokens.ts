/**
 * OAuth access tokens: opaque random strings. Each remembers the authorization code it came from, so a replayed
 * code can revoke everything issued from it (RFC 6749 §4.1.2: "SHOULD revoke … all tokens previously issued").
 */
import type { Scope } from '../types.ts';
import { randomToken } from '../ids.ts';
import type { Principal } from './principal.ts';

interface AccessTokenRecord {
  id: string;
  clientId: string;
  userId: string;
  scopes: ReadonlySet<Scope>;
  expiresAt: number;
  codeId: string;
  revoked: boolean;
}

export interface IssueInput {
  clientId: string;
  userId: string;
  scopes: ReadonlySet<Scope>;
  codeId: string;
}

export class AccessTokenStore {
  readonly #byToken = new Map<string, AccessTokenRecord>();
  readonly #byCode = new Map<string, string[]>();
  #serial = 0;

  constructor(
    private readonly ttlSeconds: number,
    private readonly now: () => number,
  ) {}

  issue(input: IssueInput): { token: string; expiresIn: number } {
    this.#prune();
    const token = randomToken('at_');
    const id = `token:${++this.#serial}`;
    this.#byToken.set(token, { ...input, id, expiresAt: this.now() + this.ttlSeconds * 1000, revoked: false });
    this.#byCode.set(input.codeId, [...(this.#byCode.get(input.codeId) ?? []), token]);
    return { token, expiresIn: this.ttlSeconds };
  }

  /** The principal of a live token; undefined for unknown, expired or revoked ones. */
  lookup(token: string): Principal | undefined {
    const record = this.#byToken.get(token);
    if (!record || record.revoked || record.expiresAt <= this.now()) return undefined;
    return { kind: 'accessToken', id: record.id, scopes: record.scopes, quota: 'default', userId: record.userId, accountId: record.userId };
  }

  revokeByCode(codeId: string): number {
    const tokens = this.#byCode.get(codeId) ?? [];
    for (const token of tokens) {
      const record = this.#byToken.get(token);
      if (record) record.revoked = true;
    }
    return tokens.length;
  }

  // Drops expired tokens on issue: the store cannot grow beyond the tokens issued within one TTL.
  #prune(): void {
    const now = this.now();
    for (const [token, record] of this.#byToken) {
      if (record.expiresAt > now) continue;
      this.#byToken.delete(token);
      this.#byCode.delete(record.codeId);
    }
  }
}
