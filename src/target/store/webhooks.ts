/** Registered webhooks. Delivery reads `subscribedTo(type)`; management adds, lists and removes. */
import type { Webhook, WebhookEventType } from '../model.ts';

export class WebhookStore {
  readonly #hooks = new Map<string, Webhook>();

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
