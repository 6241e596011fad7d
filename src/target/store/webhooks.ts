/**
 * Registered webhooks, each owned by the account that registered it. Delivery reads `subscribedTo(type, account)`;
 * management adds, lists and removes, always within one account (another account's webhook is not there for it).
 */
import type { Webhook, WebhookEventType } from '../model.ts';

/** Registrations kept at most; beyond it registration answers 422 (evicting a live webhook would be silent loss). */
export const MAX_WEBHOOKS = 10_000;

export class WebhookStore {
  readonly #hooks = new Map<string, Webhook>();
  readonly #owner = new Map<string, string>();

  constructor(readonly capacity = MAX_WEBHOOKS) {}

  get size(): number {
    return this.#hooks.size;
  }

  get full(): boolean {
    return this.#hooks.size >= this.capacity;
  }

  add(hook: Webhook, accountId: string): void {
    this.#hooks.set(hook.id, hook);
    this.#owner.set(hook.id, accountId);
  }

  /** The account's webhooks, in registration order. */
  list(accountId: string): Webhook[] {
    return [...this.#hooks.values()].filter((hook) => this.#owner.get(hook.id) === accountId);
  }

  /** Is this very registration still there (delivery drops the pending retries of a deleted webhook)? */
  has(hook: Webhook): boolean {
    return this.#hooks.get(hook.id) === hook;
  }

  /** Removes the account's webhook; false when there is none with this id in that account. */
  remove(id: string, accountId: string): boolean {
    if (this.#owner.get(id) !== accountId) return false;
    this.#owner.delete(id);
    return this.#hooks.delete(id);
  }

  /** The account's webhooks subscribed to `type`: an event is delivered only to its own account's webhooks. */
  subscribedTo(type: WebhookEventType, accountId: string): Webhook[] {
    // Called for every event of the send path: nothing to allocate while no webhook is registered.
    if (this.#hooks.size === 0) return [];
    return this.list(accountId).filter((hook) => hook.events.includes(type));
  }
}
