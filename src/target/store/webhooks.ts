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

  remove(id: string): boolean {
    return this.#hooks.delete(id);
  }

  subscribedTo(type: WebhookEventType): Webhook[] {
    return this.list().filter((hook) => hook.events.includes(type));
  }
}
