/**
 * Idempotency-Key records (draft-ietf-httpapi-idempotency-key-header): per credential and key, the request's
 * fingerprint and the response it got, for 24 h. Only completed successful responses are stored; a rejected
 * request did nothing, so retrying it under the same key is a fresh attempt.
 */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

export interface StoredResponse {
  status: number;
  body: unknown;
}

interface IdempotencyRecord {
  fingerprint: string;
  response: StoredResponse;
  expiresAt: number;
}

export type IdempotencyLookup =
  | { kind: 'miss' }
  | { kind: 'replay'; response: StoredResponse }
  | { kind: 'mismatch' };

export class IdempotencyStore {
  readonly #records = new Map<string, IdempotencyRecord>();
  #writes = 0;

  constructor(private readonly now: () => number) {}

  lookup(scope: string, key: string, fingerprint: string): IdempotencyLookup {
    const record = this.#records.get(`${scope}\u0000${key}`);
    if (!record || record.expiresAt <= this.now()) return { kind: 'miss' };
    return record.fingerprint === fingerprint ? { kind: 'replay', response: record.response } : { kind: 'mismatch' };
  }

  save(scope: string, key: string, fingerprint: string, response: StoredResponse): void {
    if (++this.#writes % 1000 === 0) this.#prune();
    this.#records.set(`${scope}\u0000${key}`, { fingerprint, response, expiresAt: this.now() + IDEMPOTENCY_TTL_MS });
  }

  #prune(): void {
    const now = this.now();
    for (const [key, record] of this.#records) if (record.expiresAt <= now) this.#records.delete(key);
  }
}
