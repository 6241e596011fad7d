/**
 * Standard Webhooks signatures (https://www.standardwebhooks.com, "Signature scheme"):
 * `webhook-signature: v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">`.
 *
 * The key: a `whsec_`-prefixed secret (what the target generates) is `whsec_` + base64 of the key bytes, so the
 * key is the base64-decoded part after the prefix, as the spec and its libraries do. Any other secret (a client
 * may choose its own) is used as its UTF-8 bytes.
 */
import { createHmac } from 'node:crypto';

const PREFIX = 'whsec_';

export function signingKey(secret: string): Buffer {
  return secret.startsWith(PREFIX) ? Buffer.from(secret.slice(PREFIX.length), 'base64') : Buffer.from(secret, 'utf8');
}

/** The `webhook-signature` header value for one attempt. */
export function signWebhook(id: string, timestampSeconds: number, body: string, secret: string): string {
  const mac = createHmac('sha256', signingKey(secret)).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}
