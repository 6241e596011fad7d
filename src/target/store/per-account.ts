/**
 * One store per account, made on first use: an account's list, cursor positions and evictions never involve
 * another account's items, so isolation holds by construction rather than by a filter each route must remember.
 */
export class PerAccount<T> {
  readonly #stores = new Map<string, T>();

  constructor(private readonly create: (accountId: string) => T) {}

  of(accountId: string): T {
    let store = this.#stores.get(accountId);
    if (store === undefined) {
      store = this.create(accountId);
      this.#stores.set(accountId, store);
    }
    return store;
  }

  all(): IterableIterator<T> {
    return this.#stores.values();
  }
}
