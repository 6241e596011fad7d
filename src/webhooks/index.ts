/** The webhook receiver, its signature verifier and its statistics: used by suites/webhooks, usable by load runs. */
export { WebhookReceiver, type ReceivedDelivery, type ReceiverOptions } from './receiver.ts';
export { verifySignature, expectedSignature, webhookSigningKey, type SignatureVerdict, type SignedDelivery } from './verify-signature.ts';
export { webhookStats, latencySummary, type WebhookStats, type WebhookUnderLoadStats, type LatencySummary, type StatsOptions } from './stats.ts';
