/**
 * Every exchange of the run, tagged with the check that made it. Standing checks (run last) read it: no request
 * any suite sent may get a 5xx, and every response must match its schema. Only what those checks need is kept
 * whole (server errors); the rest is kept as exchanges for validation, bounded so a long run stays small.
 */
import type { Exchange } from '../http/exchange.ts';

export interface TaggedExchange {
  checkId: string;
  exchange: Exchange;
}

/** Responses kept for the standing schema check; later ones are counted but not kept. */
const MAX_KEPT = 5000;

export class TrafficLog {
  readonly #kept: TaggedExchange[] = [];
  readonly #serverErrors: TaggedExchange[] = [];
  #total = 0;

  record(checkId: string, exchanges: readonly Exchange[]): void {
    for (const exchange of exchanges) {
      this.#total++;
      const tagged = { checkId, exchange };
      if (exchange.response && exchange.response.status >= 500) this.#serverErrors.push(tagged);
      if (this.#kept.length < MAX_KEPT) this.#kept.push(tagged);
    }
  }

  /** Exchanges answered with a 5xx, in order. */
  get serverErrors(): readonly TaggedExchange[] {
    return this.#serverErrors;
  }

  /** Exchanges kept for inspection (the first MAX_KEPT). */
  get exchanges(): readonly TaggedExchange[] {
    return this.#kept;
  }

  /** Exchanges made so far, kept or not. */
  get total(): number {
    return this.#total;
  }
}
