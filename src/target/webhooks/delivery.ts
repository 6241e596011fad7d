/**
 * Webhook delivery (PROFILE.md "Webhooks", Standard Webhooks): every `message.received` / `message.status` on the
 * event bus becomes one event `{id, type, created_at, data}`, POSTed to each webhook of the event's account subscribed to its type with
 * `webhook-id`, `webhook-timestamp` (Unix seconds, per attempt) and `webhook-signature` (signature.ts).
 *
 * An attempt fails on a non-2xx answer, a transport error or no complete answer within `timeoutMs`; it is retried
 * after `baseDelayMs × 2^n` (+0–10 % jitter) with the same `webhook-id` and body, at most `attempts` times in all.
 * A webhook deleted meanwhile gets nothing more: each attempt first checks it is still registered, so pending
 * retries are dropped. Every delay (back-off and timeout) goes through the TimerRegistry and requests through
 * an own undici Agent, so `close()` (app close) leaves no timer, socket or request behind.
 *
 * Every attempt first asks the URL policy again (url-policy.ts): a refused URL, or a special-use name that can
 * never resolve (`.invalid`, `.test`, `.example`), fails at once with no retry and no DNS lookup; an allow-listed
 * name is resolved by safe-lookup.ts, which checks every address and connects to the checked one.
 *
 * With no webhook registered an event costs one lookup in an empty store: the send path stays as fast as before.
 */
import { Agent, request } from 'undici';
import type { TargetEventBus, TargetEventType, TargetEvents } from '../events.ts';
import { isoTime, resourceId } from '../ids.ts';
import type { Webhook } from '../model.ts';
import type { ResolvedOptions } from '../options.ts';
import type { WebhookStore } from '../store/webhooks.ts';
import type { TimerRegistry } from '../timers.ts';
import { policyLookup, type Resolve } from './safe-lookup.ts';
import { signWebhook } from './signature.ts';
import type { WebhookUrlPolicy } from './url-policy.ts';

export interface WebhookDeliveryDeps {
  store: WebhookStore;
  events: TargetEventBus;
  timers: TimerRegistry;
  options: ResolvedOptions['webhooks'];
  /** The webhook URL policy, asked again before every attempt. */
  policy: WebhookUrlPolicy;
  /** Name resolution for allow-listed names. @default dns.lookup (tests play a rebinding name with their own) */
  resolve?: Resolve;
  now: () => number;
  /** Jitter source, [0, 1). @default Math.random */
  random?: () => number;
  /** Told about every failed attempt (debug logging). */
  onAttemptFailed?: (info: { webhookId: string; url: string; eventId: string; attempt: number; reason: string; willRetry: boolean }) => void;
}

/** The JSON body of one delivery (schemas/api/webhook-event.schema.json). */
export interface WebhookEvent<K extends TargetEventType = TargetEventType> {
  id: string;
  type: K;
  created_at: string;
  data: TargetEvents[K];
}

interface Pending {
  hook: Webhook;
  eventId: string;
  body: string;
}

/** Share of the back-off delay added at random, so retries of many events do not arrive in lockstep. */
const JITTER = 0.1;

export class WebhookDelivery {
  readonly #deps: WebhookDeliveryDeps;
  readonly #agent: Agent;
  readonly #inFlight = new Set<AbortController>();
  readonly #unsubscribe: Array<() => void>;
  #closed = false;

  constructor(deps: WebhookDeliveryDeps) {
    this.#deps = deps;
    this.#agent = new Agent({
      headersTimeout: deps.options.timeoutMs,
      bodyTimeout: deps.options.timeoutMs,
      connect: { timeout: deps.options.timeoutMs, lookup: policyLookup(deps.policy, deps.resolve) },
    });
    this.#unsubscribe = [
      deps.events.on('message.received', (data, accountId) => this.#publish('message.received', data, accountId)),
      deps.events.on('message.status', (data, accountId) => this.#publish('message.status', data, accountId)),
    ];
  }

  /** Requests under way (tests). */
  get inFlight(): number {
    return this.#inFlight.size;
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const off of this.#unsubscribe) off();
    for (const controller of this.#inFlight) controller.abort();
    this.#inFlight.clear();
    await this.#agent.destroy();
  }

  #publish<K extends TargetEventType>(type: K, data: TargetEvents[K], accountId: string): void {
    if (this.#closed) return;
    const hooks = this.#deps.store.subscribedTo(type, accountId);
    if (hooks.length === 0) return;
    const now = this.#deps.now();
    const event: WebhookEvent<K> = { id: resourceId('evt', now), type, created_at: isoTime(now), data };
    const body = JSON.stringify(event);
    for (const hook of hooks) this.#attempt({ hook, eventId: event.id, body }, 0);
  }

  #attempt(pending: Pending, attempt: number): void {
    const { hook, eventId, body } = pending;
    if (this.#closed || !this.#deps.store.has(hook)) return;
    const timestamp = Math.floor(this.#deps.now() / 1000);
    const controller = new AbortController();
    this.#inFlight.add(controller);
    this.#deps.timers.schedule(this.#deps.options.timeoutMs, () => controller.abort());
    void this.#send(hook.url, body, controller.signal, {
      'content-type': 'application/json',
      'user-agent': 'harness-reference-target/webhooks',
      'webhook-id': eventId,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signWebhook(eventId, timestamp, body, hook.secret),
    }).then((outcome) => {
      this.#inFlight.delete(controller);
      if (outcome === undefined || this.#closed) return;
      const { failure, final } = outcome;
      const willRetry = !final && attempt + 1 < this.#deps.options.attempts;
      this.#deps.onAttemptFailed?.({ webhookId: hook.id, url: hook.url, eventId, attempt: attempt + 1, reason: failure, willRetry });
      if (!willRetry) return;
      const delay = this.#deps.options.baseDelayMs * 2 ** attempt * (1 + JITTER * (this.#deps.random ?? Math.random)());
      this.#deps.timers.schedule(delay, () => this.#attempt(pending, attempt + 1));
    });
  }

  /**
   * Resolves to undefined on a 2xx answer, else to the reason the attempt failed (`final`: a retry cannot help,
   * the policy refuses the URL or its addresses). Never rejects.
   */
  async #send(url: string, body: string, signal: AbortSignal, headers: Record<string, string>): Promise<{ failure: string; final?: boolean } | undefined> {
    const decision = this.#deps.policy.check(url);
    if (!decision.ok) return { failure: `refused by the webhook URL policy: ${decision.reason}`, final: true };
    if (decision.kind === 'special-use') return { failure: `${decision.host} is a special-use name that never resolves (RFC 6761): not looked up`, final: true };
    try {
      const res = await request(url, { method: 'POST', headers, body, signal, dispatcher: this.#agent });
      await res.body.dump({ signal, limit: 64 * 1024 });
      return res.statusCode >= 200 && res.statusCode <= 299 ? undefined : { failure: `answered ${res.statusCode}` };
    } catch (err) {
      if (signal.aborted) return { failure: `no answer within ${this.#deps.options.timeoutMs} ms` };
      const refused = (err as { code?: string }).code === 'WEBHOOK_ADDRESS_REFUSED';
      return { failure: (err as Error).message, ...(refused ? { final: true } : {}) };
    }
  }
}
