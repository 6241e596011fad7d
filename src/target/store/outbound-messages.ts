/**
 * Sent messages and their status. Bounded: under a long load run the oldest entries are evicted (a Map
 * iterates in insertion order), since nothing reads a message after its status progression has finished.
 * Every eviction is counted (`evicted`, `onEvict`), so a store that forgot messages says how many.
 */
import type { MessageError, MessageStatus } from '../model.ts';

export interface OutboundMessage {
  id: string;
  to: string;
  type: string;
  status: MessageStatus;
  timestamp: string;
  error?: MessageError;
  /** The account that sent it: its status events go to that account's webhooks only. */
  accountId: string;
}

export const MAX_OUTBOUND_MESSAGES = 100_000;

export class OutboundMessageStore {
  readonly #messages = new Map<string, OutboundMessage>();
  #evicted = 0;

  constructor(
    private readonly capacity = MAX_OUTBOUND_MESSAGES,
    private readonly onEvict: (evictedSoFar: number) => void = () => {},
  ) {}

  add(message: OutboundMessage): void {
    this.#messages.set(message.id, message);
    if (this.#messages.size > this.capacity) {
      const oldest = this.#messages.keys().next().value;
      if (oldest !== undefined) this.#messages.delete(oldest);
      this.#evicted += 1;
      this.onEvict(this.#evicted);
    }
  }

  /** Messages evicted because the store was full, since start. */
  get evicted(): number {
    return this.#evicted;
  }

  get(id: string): OutboundMessage | undefined {
    return this.#messages.get(id);
  }

  get size(): number {
    return this.#messages.size;
  }
}
