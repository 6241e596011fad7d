/** Registered webhooks. Delivery reads `subscribedTo(type)`; management adds, lists and removes. */
import type { Webhook, WebhookEventType } from '../model.ts';

/** Registrations kept at most; beyond it registration answers 422 (evicting a live webhook would be silent loss). */
export const MAX_WEBHOOKS = 10_000;

export class WebhookStore {
  readonly #hooks = new Map<string, Webhook>();

  constructor(readonly capacity = MAX_WEBHOOKS) {}

  get size(): number {
    return this.#hooks.size;
  }

  get full(): boolean {
    return this.#hooks.size >= this.capacity;
  }

  add(hook: Webhook): void {
    this.#hooks.set(hook.id, hook);
  }

  list(): Webhook[] {
    return [...this.#hooks.values()];
  }

  /** Is this very registration still there (delivery drops the pending retries of a deleted webhook)? */
  has(hook: Webhook): boolean {
    return this.#hooks.get(hook.id) === hook;
  }

  remove(id: string): boolean {
    return this.#hooks.delete(id);
  }

  subscribedTo(type: WebhookEventType): Webhook[] {
    // Called for every event of the send path: nothing to allocate while no webhook is registered.
    if (this.#hooks.size === 0) return [];
    return this.list().filter((hook) => hook.events.includes(type));
  }
}
