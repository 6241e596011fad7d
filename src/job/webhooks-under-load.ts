/**
 * Webhook delivery latency while `harness run`'s throughput scenarios run (report.json `webhooks.underLoad`).
 *
 * When it applies: the throughput scenarios are about to run, the `webhooks` profile area is on, there is an
 * apiKey, and the webhooks suite's `webhooks.management.create` check passed in this run (so the target has
 * management endpoints that work; a pre-registered webhook is not used here). Then a fresh receiver is started
 * (config.webhooks: receiverHost / receiverPort / publicUrl; it answers every delivery 2xx at once) and
 * registered through `createWebhook` with the apiKey before the load phase. After the scenarios it waits for
 * stragglers (until 500 ms pass without a delivery, at most 2 s), deletes the webhook, closes the receiver and
 * summarises what arrived.
 *
 * Never fails the run: every step is bounded in time, and any problem becomes a log line and no `underLoad`.
 */
import type { FrozenConfig } from '../config/types.ts';
import type { CheckResult } from '../conformance/result.ts';
import { HttpClient } from '../http/client.ts';
import type { SecretRegistry } from '../http/redact.ts';
import { WebhookReceiver } from '../webhooks/receiver.ts';
import { webhookStats, type WebhookStats, type WebhookUnderLoadStats } from '../webhooks/stats.ts';

/** The check whose pass says the target's webhook management works. */
export const MANAGEMENT_CHECK = 'webhooks.management.create';
const EVENT_TYPES = ['message.received', 'message.status'];
/** Longest single management request (create, delete). */
const REQUEST_TIMEOUT_MS = 5000;
/** After the scenarios: stop waiting once this long passes without a delivery … */
const QUIET_MS = 500;
/** … or after this long in all. */
const MAX_STRAGGLER_WAIT_MS = 2000;

export interface UnderLoadOptions {
  config: FrozenConfig;
  baseUrl: string;
  apiKey: string | undefined;
  /** The run's check results (is `webhooks.management.create` among the passed?). */
  checks: readonly CheckResult[];
  secrets: SecretRegistry;
  log: (line: string) => void;
}

export interface UnderLoadSession {
  /** Waits for stragglers, deletes the webhook, closes the receiver; never throws. */
  finish(): Promise<WebhookUnderLoadStats | undefined>;
}

/** Whether the run should measure webhooks under load (see the module comment). */
export function webhooksUnderLoadApplies(options: Pick<UnderLoadOptions, 'config' | 'apiKey' | 'checks'>): boolean {
  return (
    options.config.conformance.profile.webhooks &&
    options.apiKey !== undefined &&
    options.checks.some((check) => check.id === MANAGEMENT_CHECK && check.status === 'passed')
  );
}

/** Starts and registers the receiver; undefined when it does not apply or could not be set up (logged). */
export async function startWebhooksUnderLoad(options: UnderLoadOptions): Promise<UnderLoadSession | undefined> {
  if (!webhooksUnderLoadApplies(options)) return undefined;
  const { config, secrets, log } = options;
  const note = (what: string, err?: unknown) =>
    log(secrets.redactText(`webhooks under load: ${what}${err === undefined ? '' : `: ${(err as Error)?.message ?? String(err)}`}`));
  const cfg = config.webhooks;
  let receiver: WebhookReceiver | undefined;
  const http = new HttpClient({ baseUrl: options.baseUrl, timeoutMs: Math.min(config.target.timeoutMs, REQUEST_TIMEOUT_MS), connections: 1, retryOn429: false });
  try {
    receiver = await WebhookReceiver.start({
      host: cfg.receiverHost,
      port: cfg.receiverPort,
      maxDeliveries: cfg.maxDeliveries,
      failAttempts: 0,
      ...(cfg.publicUrl ? { publicUrl: cfg.publicUrl } : {}),
    });
    const res = await http.request({ method: 'POST', path: config.api.paths.createWebhook, json: { url: receiver.url, events: EVENT_TYPES }, bearer: options.apiKey! });
    const body = res.json<Record<string, unknown>>();
    if (body && typeof body.secret === 'string') secrets.add(body.secret);
    if (res.status < 200 || res.status > 299) throw new Error(`registering the receiver answered ${res.status}`);
    const id = body && typeof body.id === 'string' ? body.id : undefined;
    if (id === undefined) note('the registration answer carries no "id"; the webhook cannot be deleted afterwards');
    const registered = receiver;
    return {
      async finish() {
        try {
          await settle(registered);
          if (id !== undefined) {
            const del = await http
              .request({ method: 'DELETE', path: config.api.paths.deleteWebhook.replace('{id}', encodeURIComponent(id)), bearer: options.apiKey! })
              .catch((err: unknown) => (note('deleting the webhook failed', err), undefined));
            if (del && (del.status < 200 || del.status > 299)) note(`deleting the webhook answered ${del.status}`);
          }
          const { received, deliveryLatency } = webhookStats(registered.deliveries);
          return { received, ...(deliveryLatency ? { deliveryLatency } : {}) };
        } catch (err) {
          note('failed', err);
          return undefined;
        } finally {
          await registered.close().catch(() => undefined);
          await http.close().catch(() => undefined);
        }
      },
    };
  } catch (err) {
    note('not measured', err);
    await receiver?.close().catch(() => undefined);
    await http.close().catch(() => undefined);
    return undefined;
  }
}

/** `webhooks` with `underLoad` added; unchanged when there is nothing to add or no `webhooks` to add it to. */
export function withUnderLoad(webhooks: WebhookStats | undefined, underLoad: WebhookUnderLoadStats | undefined): WebhookStats | undefined {
  return webhooks && underLoad ? { ...webhooks, underLoad } : webhooks;
}

/** Resolves once QUIET_MS pass without a delivery, or after MAX_STRAGGLER_WAIT_MS in all. */
function settle(receiver: WebhookReceiver): Promise<void> {
  return new Promise((resolve) => {
    const deadline = setTimeout(done, MAX_STRAGGLER_WAIT_MS);
    let quiet = setTimeout(done, QUIET_MS);
    const off = receiver.onDelivery(() => {
      clearTimeout(quiet);
      quiet = setTimeout(done, QUIET_MS);
    });
    function done(): void {
      clearTimeout(deadline);
      clearTimeout(quiet);
      off();
      resolve();
    }
  });
}
