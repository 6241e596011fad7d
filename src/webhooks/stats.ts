/**
 * What a receiver saw, summarised for report.json `webhooks` (and for a throughput scenario that runs a receiver):
 *
 *   received           deliveries recorded (every attempt counts)
 *   signatureFailures  deliveries whose Standard Webhooks signature does not verify with the secret
 *   duplicates         deliveries of a webhook-id that had already been answered 2xx (sent again needlessly)
 *   retriesObserved    deliveries of a webhook-id whose previous attempt was answered non-2xx (a retry)
 *   deliveryLatency    per event (webhook-id): first arrival − the event's `created_at`, in ms (p50, p99, max;
 *                      absent without a dated event). Clock skew between target and harness shows up here; a
 *                      negative difference counts as 0.
 */
import type { ReceivedDelivery } from './receiver.ts';
import type { WebhookSigningKey } from '../config/types.ts';
import { verifySignature } from './verify-signature.ts';

export interface LatencySummary {
  p50: number;
  p99: number;
  max: number;
}

export interface WebhookStats {
  received: number;
  signatureFailures: number;
  duplicates: number;
  retriesObserved: number;
  deliveryLatency?: LatencySummary;
  /**
   * What a second receiver, registered only while `harness run`'s throughput scenarios ran, saw
   * (src/job/webhooks-under-load.ts): deliveries and their latency under load. Absent when it did not run.
   */
  underLoad?: WebhookUnderLoadStats;
}

export interface WebhookUnderLoadStats {
  received: number;
  deliveryLatency?: LatencySummary;
}

export interface StatsOptions {
  /** The webhook's secret; without it no signature is judged (signatureFailures stays 0). */
  secret?: string;
  /** Which bytes key the HMAC (webhooks.signingKey). @default "auto" */
  signingKey?: WebhookSigningKey;
}

export function webhookStats(deliveries: readonly ReceivedDelivery[], options: StatsOptions = {}): WebhookStats {
  let signatureFailures = 0;
  let duplicates = 0;
  let retriesObserved = 0;
  const lastAnswer = new Map<string, number>();
  const latencies: number[] = [];
  for (const delivery of deliveries) {
    const { headers, rawBody } = delivery;
    if (options.secret !== undefined) {
      const verdict = verifySignature({ id: headers['webhook-id'], timestamp: headers['webhook-timestamp'], signature: headers['webhook-signature'], rawBody }, options.secret, options.signingKey);
      if (!verdict.ok) signatureFailures++;
    }
    const id = headers['webhook-id'];
    if (id === undefined) continue;
    const previous = lastAnswer.get(id);
    if (previous === undefined) {
      const createdAt = createdAtOf(rawBody);
      if (createdAt !== undefined) latencies.push(Math.max(0, delivery.receivedAt - createdAt));
    } else if (previous >= 200 && previous <= 299) duplicates++;
    else retriesObserved++;
    lastAnswer.set(id, delivery.answered);
  }
  const latency = latencySummary(latencies);
  return { received: deliveries.length, signatureFailures, duplicates, retriesObserved, ...(latency ? { deliveryLatency: latency } : {}) };
}

/** Nearest-rank percentiles, rounded to 0.1 ms; undefined for no samples. */
export function latencySummary(samples: readonly number[]): LatencySummary | undefined {
  if (samples.length === 0) return undefined;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = (p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
  const round = (ms: number) => Math.round(ms * 10) / 10;
  return { p50: round(rank(50)), p99: round(rank(99)), max: round(sorted[sorted.length - 1]!) };
}

function createdAtOf(rawBody: string): number | undefined {
  try {
    const body = JSON.parse(rawBody) as { created_at?: unknown };
    const at = typeof body?.created_at === 'string' ? Date.parse(body.created_at) : Number.NaN;
    return Number.isFinite(at) ? at : undefined;
  } catch {
    return undefined;
  }
}
