/**
 * The harness's Standard Webhooks verifier (https://www.standardwebhooks.com, "Verifying webhooks"): the signature
 * is computed by the convention's own library, independent of the reference target's signer, so the two check each other.
 *
 *   signed content  `${webhook-id}.${webhook-timestamp}.${raw body}` — the body exactly as received, never re-serialised
 *   key             `whsec_<base64>` → the base64-decoded bytes after the prefix; any other secret → its UTF-8 bytes
 *                   (`auto`). SERVICE-SPEC §6 says only "keyed by the secret", so a target may key its HMAC with the
 *                   secret's raw UTF-8 bytes, prefix and all: the config says which (webhooks.signingKey)
 *   header          one or more space-separated `v1,<base64 HMAC-SHA256>`; one match is enough; compared in
 *                   constant time
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import type { WebhookSigningKey } from '../config/types.ts';

const PREFIX = 'whsec_';

const KEY_WORDS: Record<WebhookSigningKey, string> = {
  auto: 'the secret (base64 after whsec_, else its UTF-8 bytes; webhooks.signingKey: auto)',
  'whsec-base64': 'the base64-decoded secret (webhooks.signingKey: whsec-base64)',
  raw: "the secret's UTF-8 bytes (webhooks.signingKey: raw)",
};

/** The HMAC key bytes of a secret under the target's convention (webhooks.signingKey). */
export function webhookSigningKey(secret: string, encoding: WebhookSigningKey = 'auto'): Buffer {
  if (encoding === 'raw') return Buffer.from(secret, 'utf8');
  if (encoding === 'whsec-base64') return Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
  return secret.startsWith(PREFIX) ? Buffer.from(secret.slice(PREFIX.length), 'base64') : Buffer.from(secret, 'utf8');
}

/** The base64 HMAC a correct sender puts after `v1,`. */
export function expectedSignature(id: string, timestamp: string, rawBody: string, secret: string, encoding: WebhookSigningKey = 'auto'): string {
  return createHmac('sha256', webhookSigningKey(secret, encoding)).update(`${id}.${timestamp}.${rawBody}`).digest('base64');
}

/**
 * The `v1,<base64>` signature the convention's own library (`standardwebhooks`) computes for a delivery, given
 * the key bytes. Verification uses it so the harness's verifier and the reference target's signer (node:crypto)
 * are two independent implementations. `Webhook.verify` is not used: it also refuses timestamps more than 5
 * minutes from now, and deliveries are verified after a run (a soak's first delivery is older than that);
 * timestamp freshness is the checks' concern. Undefined when the library refuses the key or the timestamp.
 */
export function standardWebhooksSignature(id: string, timestamp: string, rawBody: string, key: Uint8Array): string | undefined {
  if (key.length === 0 || !/^\d+$/.test(timestamp)) return undefined;
  return new Webhook(key, { format: 'raw' }).sign(id, new Date(Number(timestamp) * 1000), rawBody);
}

export interface SignedDelivery {
  /** Header values as received (undefined when missing). */
  id: string | undefined;
  timestamp: string | undefined;
  signature: string | undefined;
  rawBody: string;
}

export type SignatureVerdict = { ok: true } | { ok: false; reason: string };

export function verifySignature(delivery: SignedDelivery, secret: string, encoding: WebhookSigningKey = 'auto'): SignatureVerdict {
  const { id, timestamp, signature, rawBody } = delivery;
  const missing = [id === undefined && 'webhook-id', timestamp === undefined && 'webhook-timestamp', signature === undefined && 'webhook-signature'].filter(Boolean);
  if (missing.length > 0) return { ok: false, reason: `missing header(s): ${missing.join(', ')}` };
  const signed = standardWebhooksSignature(id!, timestamp!, rawBody, webhookSigningKey(secret, encoding));
  if (signed === undefined) return { ok: false, reason: `cannot verify: webhook-timestamp ${JSON.stringify(timestamp)} is not Unix seconds, or the secret is empty` };
  const expected = Buffer.from(signed.slice('v1,'.length), 'base64');
  const entries = signature!.split(' ').filter((entry) => entry.length > 0);
  const v1 = entries.filter((entry) => entry.startsWith('v1,'));
  if (v1.length === 0) return { ok: false, reason: `no "v1,<base64>" entry in webhook-signature (${entries.length} entr${entries.length === 1 ? 'y' : 'ies'})` };
  for (const entry of v1) {
    const given = Buffer.from(entry.slice(3), 'base64');
    if (given.length === expected.length && timingSafeEqual(given, expected)) return { ok: true };
  }
  return { ok: false, reason: `no v1 signature matches HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}" keyed by ${KEY_WORDS[encoding]}` };
}
