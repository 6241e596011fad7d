/**
 * Faulty targets for the webhooks suite. Delivery faults cannot be made on the request path alone, so the proxy
 * also relays deliveries: when the harness registers its receiver, the proxy registers its own relay URL instead
 * (and shows the original URL back in every answer); the reference target delivers to the relay, which forwards
 * to the receiver while breaking one rule — and answers the target with the receiver's status, so retries behave
 * as they would. "Never retries" needs no relay: the reference target is started with one attempt.
 */
import { randomBytes } from 'node:crypto';
import { request } from 'undici';
import { expectedSignature } from '../../../src/webhooks/verify-signature.ts';
import type { WebhookSigningKey } from '../../../src/config/types.ts';
import type { FaultCase } from '../fault-case.ts';
import { jsonBody, withJson, type Fault, type FaultTools, type ProxyRequest, type ProxyResponse } from '../faulty-proxy.ts';

const RELAY_PREFIX = '/__webhook-relay/';
const WEBHOOKS_PATH = '/v1/webhooks';
/** Short waits keep each case a few seconds; the reference's first two retries come after ~0.5 s and ~1.5 s. */
const CONFIG = { webhooks: { waitSeconds: 3 } };

interface Relayed {
  url: string;
  secret?: string;
}

interface RelayDelivery {
  headers: Record<string, string>;
  body: string;
  /** Attempt of this webhook-id as the relay saw it (1 = first). */
  attempt: number;
  event: { type?: string; data?: { status?: string } };
  /** The webhook's real secret, for faults that re-sign. */
  secret: string;
}

/** Rewrite a delivery, or drop it (the target is told 204 and the receiver sees nothing). */
type Breaker = (delivery: RelayDelivery) => { headers: Record<string, string>; body: string } | 'drop';

function relays(tools: FaultTools): Map<string, Relayed> {
  let map = tools.state.get('relays') as Map<string, Relayed> | undefined;
  if (!map) tools.state.set('relays', (map = new Map()));
  return map;
}

function resign(headers: Record<string, string>, body: string, secret: string, key: WebhookSigningKey = 'auto'): Record<string, string> {
  const id = headers['webhook-id'] ?? '';
  const timestamp = headers['webhook-timestamp'] ?? '';
  return { ...headers, 'webhook-signature': `v1,${expectedSignature(id, timestamp, body, secret, key)}` };
}

function originalUrl(url: unknown, tools: FaultTools): unknown {
  if (typeof url !== 'string' || !url.startsWith(`${tools.baseUrl}${RELAY_PREFIX}`)) return url;
  return relays(tools).get(url.slice(`${tools.baseUrl}${RELAY_PREFIX}`.length))?.url ?? url;
}

function webhookRelay(breaker: Breaker): Fault {
  return {
    async onRequest(req, tools) {
      if (req.path.startsWith(RELAY_PREFIX)) return relay(req, tools, breaker);
      if (req.method === 'POST' && req.path === WEBHOOKS_PATH) {
        const body = JSON.parse(req.body) as { url?: string };
        const key = String(relays(tools).size + 1);
        relays(tools).set(key, { url: String(body.url) });
        return { ...req, body: JSON.stringify({ ...body, url: `${tools.baseUrl}${RELAY_PREFIX}${key}` }) };
      }
      return req;
    },
    onResponse(req, res, tools) {
      if (!req.path.startsWith(WEBHOOKS_PATH) || res.status >= 300 || res.body === '') return res;
      if (req.method === 'POST') {
        const body = jsonBody<{ url: string; secret: string }>(res);
        const key = body.url.slice(`${tools.baseUrl}${RELAY_PREFIX}`.length);
        const relayed = relays(tools).get(key);
        if (relayed) relayed.secret = body.secret;
        return withJson(res, { ...body, url: originalUrl(body.url, tools) });
      }
      if (req.method === 'GET') {
        const body = jsonBody<{ data: Array<{ url: string }> }>(res);
        return withJson(res, { ...body, data: body.data.map((item) => ({ ...item, url: originalUrl(item.url, tools) })) });
      }
      return res;
    },
  };
}

async function relay(req: ProxyRequest, tools: FaultTools, breaker: Breaker): Promise<ProxyResponse> {
  const relayed = relays(tools).get(req.path.slice(RELAY_PREFIX.length));
  if (!relayed) return { status: 404, headers: {}, body: '' };
  const attempts = (tools.state.get('attempts') as Map<string, number> | undefined) ?? new Map<string, number>();
  tools.state.set('attempts', attempts);
  const id = req.headers['webhook-id'] ?? '';
  const attempt = (attempts.get(id) ?? 0) + 1;
  attempts.set(id, attempt);
  const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => name === 'content-type' || name.startsWith('webhook-')));
  const outcome = breaker({ headers, body: req.body, attempt, event: JSON.parse(req.body) as RelayDelivery['event'], secret: relayed.secret ?? '' });
  if (outcome === 'drop') return { status: 204, headers: {}, body: '' };
  const res = await request(relayed.url, { method: 'POST', headers: outcome.headers, body: outcome.body });
  await res.body.dump();
  return { status: res.statusCode, headers: {}, body: '' };
}

const wrongSecret = `whsec_${randomBytes(24).toString('base64')}`;

/** A legal convention, not a fault: HMAC keyed by the secret's raw UTF-8 bytes ("keyed by the secret", §6). */
const rawKeySigned = webhookRelay(({ headers, body, secret }) => ({ headers: resign(headers, body, secret, 'raw'), body }));

export const WEBHOOK_FAULTS: FaultCase[] = [
  {
    name: 'webhook deliveries are signed with the raw secret bytes, and the config says so (webhooks.signingKey: raw)',
    fault: rawKeySigned,
    suites: ['webhooks'],
    failing: [],
    verdict: 'selection-passed',
    config: { webhooks: { ...CONFIG.webhooks, signingKey: 'raw' } },
  },
  {
    name: 'webhook deliveries are signed with the raw secret bytes, and the config does not say so',
    fault: rawKeySigned,
    suites: ['webhooks'],
    failing: ['webhooks.signature.valid'],
    verdict: 'selection-passed',
    config: CONFIG,
  },
  {
    name: 'webhook deliveries are signed with the wrong secret',
    fault: webhookRelay(({ headers, body }) => ({ headers: resign(headers, body, wrongSecret), body })),
    suites: ['webhooks'],
    failing: ['webhooks.signature.valid'],
    verdict: 'selection-passed',
    config: CONFIG,
  },
  {
    name: 'a webhook delivery answered 500 is never retried',
    fault: { reference: { webhooks: { attempts: 1 } } },
    suites: ['webhooks'],
    failing: ['webhooks.retries.after-failure'],
    verdict: 'selection-passed',
    config: CONFIG,
  },
  {
    name: 'a webhook retry carries a new webhook-id',
    fault: webhookRelay(({ headers, body, attempt, secret }) =>
      attempt === 1 ? { headers, body } : { headers: resign({ ...headers, 'webhook-id': `${headers['webhook-id']}_retry${attempt}` }, body, secret), body },
    ),
    suites: ['webhooks'],
    failing: ['webhooks.ids.stable-across-retries'],
    verdict: 'selection-passed',
    config: CONFIG,
  },
  {
    name: 'the "delivered" status is never notified',
    fault: webhookRelay((delivery) => (delivery.event.type === 'message.status' && delivery.event.data?.status === 'delivered' ? 'drop' : delivery)),
    suites: ['webhooks'],
    failing: ['webhooks.events.every-status'],
    verdict: 'selection-passed',
    config: CONFIG,
  },
  {
    name: 'webhook-timestamp is sent in milliseconds',
    fault: webhookRelay(({ headers, body, secret }) => ({
      headers: resign({ ...headers, 'webhook-timestamp': `${Number(headers['webhook-timestamp']) * 1000}` }, body, secret),
      body,
    })),
    suites: ['webhooks'],
    failing: ['webhooks.headers.timestamp-fresh'],
    verdict: 'selection-passed',
    config: CONFIG,
  },
  {
    name: 'no delivery-status notification is sent at all (only incoming messages are notified)',
    fault: webhookRelay((delivery) => (delivery.event.type === 'message.status' ? 'drop' : delivery)),
    suites: ['webhooks'],
    failing: ['webhooks.events.every-status', 'webhooks.events.status-notified'],
    verdict: 'not-certified',
    config: CONFIG,
  },
];
