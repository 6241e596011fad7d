/**
 * Received messages, kept sorted newest first by (timestamp, id) — the list order — so a page is a binary
 * search to the cursor position plus a scan. Keyset paging (the cursor is the last item's sort key, not an
 * offset) is what keeps pages stable while messages arrive: a newer message sorts before the cursor and can
 * never shift or repeat items on later pages.
 *
 * Bounded (an exposed target must not grow without limit under a sandbox flood): past `capacity` the oldest
 * message — the last in list order — is evicted, and every eviction is counted (`evicted`, `onEvict`), never silent.
 */
import type { ListedMessage } from '../model.ts';

export interface SortKey {
  /** Milliseconds since the epoch. */
  t: number;
  id: string;
}

export interface PageQuery {
  limit: number;
  /** Start strictly after this position. */
  after?: SortKey;
  from?: string;
  /** Inclusive lower bound, ms. */
  since?: number;
  /** Exclusive upper bound, ms. */
  until?: number;
}

export interface Page {
  items: ListedMessage[];
  /** Each item's JSON, serialised once when it was stored (stored messages never change). */
  itemsJson: string[];
  /** The last item's entry when more items match after it: the next page starts after it. */
  next: Entry | null;
}

export interface Entry {
  readonly key: SortKey;
  readonly message: ListedMessage;
  readonly json: string;
  /** The cursor that pages past this entry, memoised by the list route (cursors are deterministic). */
  cursor?: string;
}

/** Negative when a sorts before b in list order (newest first). */
function compare(a: SortKey, b: SortKey): number {
  if (a.t !== b.t) return b.t - a.t;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

export const MAX_INBOUND_MESSAGES = 100_000;

export class InboundMessageStore {
  readonly #entries: Entry[] = [];
  #evicted = 0;

  constructor(
    private readonly capacity = MAX_INBOUND_MESSAGES,
    private readonly onEvict: (evictedSoFar: number) => void = () => {},
  ) {}

  add(message: ListedMessage): void {
    const entry: Entry = { key: { t: Date.parse(message.timestamp), id: message.id }, message, json: JSON.stringify(message) };
    this.#entries.splice(this.#firstAfterOrAt(entry.key), 0, entry);
    if (this.#entries.length > this.capacity) {
      this.#entries.pop();
      this.#evicted += 1;
      this.onEvict(this.#evicted);
    }
  }

  /** Messages evicted because the store was full, since start. */
  get evicted(): number {
    return this.#evicted;
  }

  get size(): number {
    return this.#entries.length;
  }

  page(query: PageQuery): Page {
    const items: ListedMessage[] = [];
    const itemsJson: string[] = [];
    let last: Entry | null = null;
    let index = query.after ? this.#firstAfter(query.after) : 0;
    // `until` is exclusive and the list runs newest first: skip straight past everything at or after it.
    // The empty id sorts after every real id of the same instant, so this lands on the first entry older than until.
    if (query.until !== undefined) index = Math.max(index, this.#firstAfterOrAt({ t: query.until, id: '' }));
    for (; index < this.#entries.length; index++) {
      const entry = this.#entries[index]!;
      if (query.since !== undefined && entry.key.t < query.since) break;
      if (query.from !== undefined && entry.message.from !== query.from) continue;
      if (items.length === query.limit) return { items, itemsJson, next: last };
      items.push(entry.message);
      itemsJson.push(entry.json);
      last = entry;
    }
    return { items, itemsJson, next: null };
  }

  /** Index of the first entry that sorts strictly after `key`. */
  #firstAfter(key: SortKey): number {
    return this.#search((entry) => compare(entry, key) > 0);
  }

  /** Index of the first entry that sorts at or after `key`. */
  #firstAfterOrAt(key: SortKey): number {
    return this.#search((entry) => compare(entry, key) >= 0);
  }

  /** Lowest index whose key satisfies a predicate that is monotone over the sorted array. */
  #search(isAtOrPast: (key: SortKey) => boolean): number {
    let lo = 0;
    let hi = this.#entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (isAtOrPast(this.#entries[mid]!.key)) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }
}
