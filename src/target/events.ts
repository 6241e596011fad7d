/**
 * A tiny typed event bus. Routes publish what happened; webhook delivery (and tests) subscribe. Keeping the
 * producers ignorant of the consumers is what lets delivery be added without touching the message routes.
 */
import type { ListedMessage, MessageStatusData } from './model.ts';

export interface TargetEvents {
  'message.received': ListedMessage;
  'message.status': MessageStatusData;
}
export type TargetEventType = keyof TargetEvents;
/** `accountId`: the account the event belongs to; only that account's webhooks hear of it. */
export type Listener<K extends TargetEventType> = (data: TargetEvents[K], accountId: string) => void;

export class TargetEventBus {
  readonly #listeners: { [K in TargetEventType]: Set<Listener<K>> } = {
    'message.received': new Set(),
    'message.status': new Set(),
  };

  /** @param onListenerError a throwing subscriber is reported here and never breaks the publisher. */
  constructor(private readonly onListenerError: (err: unknown, type: TargetEventType) => void = () => {}) {}

  /** Subscribe; returns the unsubscribe function. */
  on<K extends TargetEventType>(type: K, listener: Listener<K>): () => void {
    const set = this.#listeners[type] as Set<Listener<K>>;
    set.add(listener);
    return () => set.delete(listener);
  }

  emit<K extends TargetEventType>(type: K, data: TargetEvents[K], accountId: string): void {
    for (const listener of this.#listeners[type] as Set<Listener<K>>) {
      try {
        listener(data, accountId);
      } catch (err) {
        this.onListenerError(err, type);
      }
    }
  }

  clear(): void {
    for (const set of Object.values(this.#listeners)) set.clear();
  }
}
