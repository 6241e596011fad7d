/** The reference target's signer and the harness's verifier agree with each other and with Standard Webhooks. */
import { describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import { signWebhook, signingKey } from '../../../src/target/webhooks/signature.ts';
import { latencySummary, webhookStats } from '../../../src/webhooks/stats.ts';
import { standardWebhooksSignature, verifySignature, webhookSigningKey } from '../../../src/webhooks/verify-signature.ts';
import type { ReceivedDelivery } from '../../../src/webhooks/receiver.ts';

// The example of the Standard Webhooks specification (and its reference libraries' tests).
const SPEC = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};

describe('Standard Webhooks signatures', () => {
  it('the target signs the spec example as the spec does', () => {
    expect(signWebhook(SPEC.id, SPEC.timestamp, SPEC.body, SPEC.secret)).toBe(SPEC.signature);
  });

  it('the harness verifies with the standardwebhooks library: the spec example, and what the target signs', () => {
    expect(standardWebhooksSignature(SPEC.id, String(SPEC.timestamp), SPEC.body, webhookSigningKey(SPEC.secret))).toBe(SPEC.signature);
    for (const secret of ['plain-text secret', SPEC.secret]) {
      const signed = signWebhook('msg_1', 1_700_000_000, '{"a":"é"}', secret);
      expect(standardWebhooksSignature('msg_1', '1700000000', '{"a":"é"}', webhookSigningKey(secret))).toBe(signed);
    }
    expect(standardWebhooksSignature('msg_1', 'yesterday', '{}', webhookSigningKey('s'))).toBeUndefined();
    expect(verifySignature({ id: 'msg_1', timestamp: 'yesterday', signature: 'v1,AAAA', rawBody: '{}' }, 's').ok).toBe(false);
  });

  it('the harness verifies the spec example, among several signatures, and rejects tampering', () => {
    const delivery = { id: SPEC.id, timestamp: String(SPEC.timestamp), signature: `v1,bm9wZQ== ${SPEC.signature}`, rawBody: SPEC.body };
    expect(verifySignature(delivery, SPEC.secret)).toEqual({ ok: true });
    expect(verifySignature({ ...delivery, rawBody: '{"test": 2432232315}' }, SPEC.secret).ok).toBe(false);
    expect(verifySignature({ ...delivery, timestamp: '1614265331' }, SPEC.secret).ok).toBe(false);
    expect(verifySignature({ ...delivery, signature: undefined }, SPEC.secret)).toEqual({ ok: false, reason: 'missing header(s): webhook-signature' });
    expect(verifySignature({ ...delivery, signature: 'v2,abc' }, SPEC.secret).ok).toBe(false);
  });

  it('a whsec_ secret is keyed by its base64-decoded bytes; any other secret by its UTF-8 bytes', () => {
    expect(signingKey('whsec_aGVsbG8=')).toEqual(Buffer.from('hello'));
    expect(webhookSigningKey('whsec_aGVsbG8=')).toEqual(Buffer.from('hello'));
    expect(signingKey('my-own-secret')).toEqual(Buffer.from('my-own-secret'));
    const signature = signWebhook('evt_1', 1700000000, '{}', 'my-own-secret');
    expect(verifySignature({ id: 'evt_1', timestamp: '1700000000', signature, rawBody: '{}' }, 'my-own-secret').ok).toBe(true);
  });
});

function delivery(seq: number, id: string, answered: number, receivedAt: number, createdAt = 1_000): ReceivedDelivery {
  const rawBody = JSON.stringify({ id, type: 'message.status', created_at: new Date(createdAt).toISOString(), data: {} });
  return { seq, receivedAt, method: 'POST', path: '/', headers: { 'webhook-id': id }, rawBody, attempt: 0, answered };
}

describe('webhookStats', () => {
  it('counts retries after a failure, duplicates after a success, and latency of first arrivals', () => {
    const stats = webhookStats([delivery(1, 'a', 500, 1_010), delivery(2, 'a', 204, 1_510), delivery(3, 'a', 204, 1_600), delivery(4, 'b', 204, 1_030)]);
    expect(stats).toEqual({ received: 4, signatureFailures: 0, duplicates: 1, retriesObserved: 1, deliveryLatency: { p50: 10, p99: 30, max: 30 } });
  });

  it('counts signature failures when given the secret', () => {
    expect(webhookStats([delivery(1, 'a', 204, 1_010)], { secret: 'whsec_aGVsbG8=' }).signatureFailures).toBe(1);
  });

  it('nearest-rank percentiles', () => {
    expect(latencySummary([])).toBeUndefined();
    expect(latencySummary(Array.from({ length: 100 }, (_, i) => i + 1))).toEqual({ p50: 50, p99: 99, max: 100 });
  });
});

describe('webhooks.signingKey: which bytes key the HMAC', () => {
  const secret = 'whsec_aGVsbG8=';
  it('whsec-base64 decodes after the prefix, raw takes the UTF-8 bytes, auto picks by prefix', () => {
    expect(webhookSigningKey(secret, 'whsec-base64')).toEqual(Buffer.from('hello'));
    expect(webhookSigningKey(secret, 'raw')).toEqual(Buffer.from(secret, 'utf8'));
    expect(webhookSigningKey(secret, 'auto')).toEqual(Buffer.from('hello'));
    expect(webhookSigningKey('plain', 'auto')).toEqual(Buffer.from('plain'));
  });

  it('a raw-key signature verifies only under signingKey raw, and the reason names the convention', () => {
    const signature = `v1,${createHmac('sha256', Buffer.from(secret, 'utf8')).update('evt_1.1700000000.{}').digest('base64')}`;
    const delivery = { id: 'evt_1', timestamp: '1700000000', signature, rawBody: '{}' };
    expect(verifySignature(delivery, secret, 'raw')).toEqual({ ok: true });
    const verdict = verifySignature(delivery, secret, 'auto');
    expect(verdict.ok).toBe(false);
    expect(verdict.ok ? '' : verdict.reason).toContain('webhooks.signingKey: auto');
  });
});
