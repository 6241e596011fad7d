/**
 * Every exchange of the run, tagged with the check that made it. Standing checks (run last) read it: no request
 * any suite sent may get a 5xx, and every response must match its schema. What is kept is bounded in count AND in
 * bytes (a target answering 1 MiB to every request would otherwise hold gigabytes); later exchanges are counted,
 * and the standing checks say how many they could not look at.
 */
import { heldBytes, type Exchange } from '../http/exchange.ts';

export interface TaggedExchange {
  checkId: string;
  exchange: Exchange;
}

export interface TrafficLimits {
  /** Exchanges kept for the standing schema check. @default 5000 */
  maxKept?: number;
  /** Body bytes (request + response, as kept) the kept exchanges may hold together. @default 16 MiB */
  maxKeptBytes?: number;
  /** Server errors kept whole (the no-5xx check shows them). @default 200 */
  maxServerErrors?: number;
}

export class TrafficLog {
  readonly #kept: TaggedExchange[] = [];
  readonly #serverErrors: TaggedExchange[] = [];
  readonly #limits: Required<TrafficLimits>;
  #keptBytes = 0;
  #total = 0;
  #serverErrorCount = 0;

  constructor(limits: TrafficLimits = {}) {
    this.#limits = { maxKept: limits.maxKept ?? 5000, maxKeptBytes: limits.maxKeptBytes ?? 16 * 1024 * 1024, maxServerErrors: limits.maxServerErrors ?? 200 };
  }

  record(checkId: string, exchanges: readonly Exchange[]): void {
    for (const exchange of exchanges) {
      this.#total++;
      const tagged = { checkId, exchange };
      if (exchange.response && exchange.response.status >= 500) {
        this.#serverErrorCount++;
        if (this.#serverErrors.length < this.#limits.maxServerErrors) this.#serverErrors.push(tagged);
      }
      const size = sizeOf(exchange);
      if (this.#kept.length < this.#limits.maxKept && this.#keptBytes + size <= this.#limits.maxKeptBytes) {
        this.#kept.push(tagged);
        this.#keptBytes += size;
      }
    }
  }

  /** Exchanges answered with a 5xx, in order (the first maxServerErrors). */
  get serverErrors(): readonly TaggedExchange[] {
    return this.#serverErrors;
  }

  /** Exchanges answered with a 5xx, kept or not. */
  get serverErrorCount(): number {
    return this.#serverErrorCount;
  }

  /** Exchanges kept for inspection (the first ones, within the count and byte bounds). */
  get exchanges(): readonly TaggedExchange[] {
    return this.#kept;
  }

  /** Exchanges made so far, kept or not. */
  get total(): number {
    return this.#total;
  }
}

/**
 * Bytes an exchange holds in memory, roughly: its bodies counted in bytes, not characters (a two-byte string holds
 * twice its length), plus its headers.
 */
function sizeOf(exchange: Exchange): number {
  let headers = 0;
  for (const [name, value] of Object.entries(exchange.request.headers)) headers += name.length + value.length;
  for (const [name, value] of Object.entries(exchange.response?.headers ?? {})) headers += name.length + value.length;
  return heldBytes(exchange.request.body) + heldBytes(exchange.response?.body) + headers + 512;
}
