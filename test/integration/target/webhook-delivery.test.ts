/**
 * The reference target's webhook delivery against real receivers on 127.0.0.1 port 0: signed Standard Webhooks
 * events, retries with back-off and a stable webhook-id, giving up, timeouts, deletion, and a clean close.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp, type BuiltApp } from '../../../src/target/app.ts';
import type { ReferenceTargetOptions } from '../../../src/target/types.ts';
import { WebhookReceiver } from '../../../src/webhooks/receiver.ts';
import { verifySignature } from '../../../src/webhooks/verify-signature.ts';
import { createAjv } from '../../../src/schemas/registry.ts';
import { bearer, TEXT_MESSAGE } from '../../helpers/reference-target.ts';

let built: BuiltApp | undefined;
let receiver: WebhookReceiver | undefined;
let hanging: Server | undefined;

afterEach(async () => {
  await built?.app.close();
  await receiver?.close();
  if (hanging) {
    hanging.closeAllConnections();
    await new Promise((resolve) => hanging!.close(resolve));
  }
  built = receiver = hanging = undefined;
});

async function setup(options: ReferenceTargetOptions, failAttempts = 0): Promise<{ app: BuiltApp; hookId: string; secret: string }> {
  receiver = await WebhookReceiver.start({ failAttempts });
  built = await buildApp({ statusDelaysMs: { delivered: 30, read: 60 }, ...options });
  const { hookId, secret } = await register(receiver.url);
  return { app: built, hookId, secret };
}

async function register(url: string): Promise<{ hookId: string; secret: string }> {
  const res = await built!.app.inject({ method: 'POST', url: '/v1/webhooks', headers: bearer(built!.credentials.apiKeys.full), payload: { url, events: ['message.received', 'message.status'] } });
  expect(res.statusCode).toBe(201);
  const body = res.json() as { id: string; secret: string };
  return { hookId: body.id, secret: body.secret };
}

async function send(to: string = TEXT_MESSAGE.to): Promise<string> {
  const res = await built!.app.inject({ method: 'POST', url: '/v1/whatsapp/messages', headers: bearer(built!.credentials.apiKeys.full), payload: { ...TEXT_MESSAGE, to } });
  expect(res.statusCode).toBe(201);
  return (res.json() as { id: string }).id;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('webhook delivery', () => {
  it('delivers every status as a signed Standard Webhooks event that matches its schema', async () => {
    const { secret } = await setup({});
    const id = await send();
    await receiver!.waitFor((d) => d.rawBody.includes('"read"'), 2000);
    const ajv = createAjv();
    const validate = ajv.getSchema('https://api-harness.example/schemas/api/webhook-event.json')!;
    const events = receiver!.deliveries.map((d) => JSON.parse(d.rawBody) as { id: string; type: string; data: { id: string; status: string } });
    expect(events.map((e) => [e.type, e.data.id, e.data.status])).toEqual([
      ['message.status', id, 'sent'],
      ['message.status', id, 'delivered'],
      ['message.status', id, 'read'],
    ]);
    for (const [i, d] of receiver!.deliveries.entries()) {
      expect(validate(events[i]), JSON.stringify(validate.errors)).toBe(true);
      expect(d.headers['webhook-id']).toBe(events[i]!.id);
      expect(d.headers['content-type']).toBe('application/json');
      expect(Math.abs(Number(d.headers['webhook-timestamp']) - d.receivedAt / 1000)).toBeLessThan(5);
      expect(verifySignature({ id: d.headers['webhook-id'], timestamp: d.headers['webhook-timestamp'], signature: d.headers['webhook-signature'], rawBody: d.rawBody }, secret)).toEqual({ ok: true });
    }
    expect(new Set(receiver!.deliveries.map((d) => d.headers['webhook-id'])).size).toBe(3);
  });

  it('notifies an inbound sandbox message as message.received with the listed message', async () => {
    await setup({});
    const res = await built!.app.inject({ method: 'POST', url: '/v1/sandbox/inbound', headers: bearer(built!.credentials.apiKeys.full), payload: { from: '15550001111', text: 'hi there' } });
    const listed = res.json() as Record<string, unknown>;
    const arrived = await receiver!.waitFor(() => true, 2000);
    expect(JSON.parse(arrived!.rawBody)).toMatchObject({ type: 'message.received', data: listed });
  });

  it('retries a failed attempt with back-off and the same webhook-id, and gives up after `attempts`', async () => {
    await setup({ webhooks: { attempts: 3, baseDelayMs: 100 } }, 10);
    await send('9995550000');
    const sentEvents = () => receiver!.deliveries.filter((d) => d.rawBody.includes('"sent"'));
    // Wait for the third attempt (bounded), then past where a fourth would come (base 100 ms × 2² after it).
    for (const until = Date.now() + 5000; sentEvents().length < 3 && Date.now() < until; ) await sleep(50);
    await sleep(600);
    const sent = sentEvents();
    expect(sent).toHaveLength(3);
    expect(new Set(sent.map((d) => d.headers['webhook-id'])).size).toBe(1);
    expect(new Set(sent.map((d) => d.rawBody)).size).toBe(1);
    const [g1, g2] = [sent[1]!.receivedAt - sent[0]!.receivedAt, sent[2]!.receivedAt - sent[1]!.receivedAt];
    // Back-off: at least the base delay, then at least twice it. Upper bounds stay loose: a busy machine delays
    // timers, never advances them.
    expect(g1).toBeGreaterThanOrEqual(95);
    expect(g2).toBeGreaterThanOrEqual(195);
    expect(g1).toBeLessThan(1000);
    expect(g2).toBeLessThan(2000);
  });

  it('counts no answer within timeoutMs as a failed attempt', async () => {
    built = await buildApp({ webhooks: { attempts: 2, baseDelayMs: 10, timeoutMs: 150 } });
    const arrivals: number[] = [];
    hanging = createServer((req, res) => {
      arrivals.push(Date.now());
      req.resume();
      if (arrivals.length > 1) res.end(); // the retry is answered; the first attempt never is
    });
    await new Promise<void>((resolve) => hanging!.listen(0, '127.0.0.1', resolve));
    await register(`http://127.0.0.1:${(hanging.address() as AddressInfo).port}/hook`);
    // The first attempt is sent after this instant, and its timeout starts with it. The first arrival is no start to
    // measure from: a loaded machine may see it late, which makes the gap to the retry look short.
    const triggered = Date.now();
    await built.app.inject({ method: 'POST', url: '/v1/sandbox/inbound', headers: bearer(built.credentials.apiKeys.full), payload: { from: '15550001111', text: 'x' } });
    for (const until = Date.now() + 5000; arrivals.length < 2 && Date.now() < until; ) await sleep(20);
    await sleep(200);
    // Two attempts in all (attempts: 2), the retry only after the first one's timeout ran out.
    expect(arrivals).toHaveLength(2);
    expect(arrivals[1]! - triggered).toBeGreaterThanOrEqual(150);
  });

  it('drops pending retries and sends nothing new once the webhook is deleted', async () => {
    // One event only (the later statuses are far off): on a loaded machine "delivered" and "read" could otherwise be
    // in flight at the delete, and an attempt already sent may still arrive; what is tested is what comes after.
    const { hookId } = await setup({ webhooks: { baseDelayMs: 200 }, statusDelaysMs: { delivered: 600_000, read: 600_000 } }, 1);
    await send();
    await receiver!.waitFor(() => true, 2000);
    const del = await built!.app.inject({ method: 'DELETE', url: `/v1/webhooks/${hookId}`, headers: bearer(built!.credentials.apiKeys.full) });
    expect(del.statusCode).toBe(204);
    const count = receiver!.deliveries.length;
    await sleep(700);
    expect(receiver!.deliveries.length).toBe(count);
  });

  it('close() aborts a delivery in flight and leaves nothing pending', async () => {
    built = await buildApp({ webhooks: { timeoutMs: 60_000 } });
    let arrived = false;
    hanging = createServer((req) => {
      arrived = true;
      req.resume();
    });
    await new Promise<void>((resolve) => hanging!.listen(0, '127.0.0.1', resolve));
    await register(`http://127.0.0.1:${(hanging.address() as AddressInfo).port}/hook`);
    await send();
    while (!arrived) await sleep(5);
    const started = performance.now();
    await built.app.close();
    expect(performance.now() - started).toBeLessThan(1000);
    built = undefined;
  });

  it('sends nothing while no webhook is registered', async () => {
    receiver = await WebhookReceiver.start();
    built = await buildApp({ statusDelaysMs: { delivered: 1, read: 2 } });
    await send();
    await sleep(50);
    expect(receiver.deliveries).toHaveLength(0);
  });
});
