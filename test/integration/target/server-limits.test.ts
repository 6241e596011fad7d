/**
 * A reference target safe to expose: idle sockets are closed (a keep-alive connection after its answer, and a
 * connection that never sends a request), the message stores are bounded and count what they evict, and
 * `harness serve` stops soon after SIGTERM even with deliveries pending and a request to a receiver in flight.
 */
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startReferenceTarget, type StartedTarget } from '../../../src/target/start.ts';
import { InboundMessageStore } from '../../../src/target/store/inbound-messages.ts';
import { OutboundMessageStore } from '../../../src/target/store/outbound-messages.ts';
import { startServe } from '../../helpers/cli.ts';

let target: StartedTarget | undefined;
let hanging: Server | undefined;

afterEach(async () => {
  await target?.close();
  if (hanging) {
    hanging.closeAllConnections();
    await new Promise((resolve) => hanging!.close(resolve));
  }
  target = hanging = undefined;
});

function closed(socket: Socket, boundMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    // On a busy machine the server may close a socket before this listener is attached: its 'close' already fired.
    if (socket.closed) return resolve(true);
    const timer = setTimeout(() => resolve(false), boundMs);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.on('error', reject);
    // Read whatever the server says before it closes (Node's headers timeout answers 408 first): an unread answer
    // holds back the socket's 'end', and so its 'close', however long the test waits.
    socket.resume();
  });
}

describe('reference target server limits', () => {
  it('closes a keep-alive connection that stays idle after its answer, and connections that never send anything', async () => {
    target = await startReferenceTarget({ server: { keepAliveMs: 200, headersMs: 300, idleMs: 400 } });
    const idle = await Promise.all(Array.from({ length: 20 }, () => open(target!.port)));
    const keepAlive = await open(target.port);
    let answer = '';
    keepAlive.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    keepAlive.write('GET /v1/does-not-exist HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n');
    // Generous bounds: the server's own timeouts are 200-300 ms; only "never" fails.
    const results = await Promise.all([...idle, keepAlive].map((s) => closed(s, 10_000)));
    expect(answer).toMatch(/^HTTP\/1\.1 404/);
    expect(results.filter(Boolean)).toHaveLength(21);
  });

  it('bounds the inbound and outbound stores, evicting the oldest and counting every eviction', () => {
    const evictions: number[] = [];
    const inbound = new InboundMessageStore(3, (n) => evictions.push(n));
    for (let i = 0; i < 5; i++) inbound.add({ id: `msg_${i}`, from: '1', type: 'text', text: { body: 'x' }, timestamp: new Date(Date.UTC(2030, 0, 1, 0, 0, i)).toISOString() } as never);
    expect(inbound.size).toBe(3);
    expect(inbound.evicted).toBe(2);
    expect(evictions).toEqual([1, 2]);
    expect(inbound.page({ limit: 10 }).items.map((m) => m.id)).toEqual(['msg_4', 'msg_3', 'msg_2']);

    const outbound = new OutboundMessageStore(2);
    for (let i = 0; i < 4; i++) outbound.add({ id: `m${i}`, to: '1', type: 'text', status: 'sent', timestamp: '2030-01-01T00:00:00.000Z', accountId: 'acct_1' });
    expect([outbound.size, outbound.evicted, outbound.get('m0'), outbound.get('m3')?.id]).toEqual([2, 2, undefined, 'm3']);
  });

  it('says so on stderr when a store evicts (the logger is off by default); the list no longer holds the evicted message', async () => {
    target = await startReferenceTarget({ stores: { inbound: 2, outbound: 2 } });
    const headers = { authorization: `Bearer ${target.credentials.apiKeys.full}`, 'content-type': 'application/json' };
    const said: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      said.push(String(chunk));
      return true;
    }) as typeof process.stderr.write;
    try {
      for (let i = 0; i < 3; i++) {
        const sent = await fetch(`${target.baseUrl}/v1/whatsapp/messages`, { method: 'POST', headers, body: JSON.stringify({ to: '15551234567', type: 'text', text: { body: `m${i}` } }) });
        expect(sent.status).toBe(201);
        const received = await fetch(`${target.baseUrl}/v1/sandbox/inbound`, { method: 'POST', headers, body: JSON.stringify({ from: '15550001111', text: `in${i}` }) });
        expect(received.status).toBeLessThan(300);
      }
    } finally {
      process.stderr.write = write;
    }
    expect(said.join('')).toContain('reference target: outbound store full: oldest messages evicted (1 so far)');
    expect(said.join('')).toContain('reference target: inbound store full: oldest messages evicted (1 so far)');
    const list = (await (await fetch(`${target.baseUrl}/v1/whatsapp/messages?limit=10`, { headers })).json()) as { data: Array<{ text?: string }> };
    // Two messages of the same millisecond sort by id: compare as a set.
    expect(list.data.map((m) => m.text).sort()).toEqual(['in1', 'in2']);
  });

  it('harness serve exits within 5 s of SIGTERM with a webhook delivery in flight and retries pending', async () => {
    // A receiver that accepts and never answers: the delivery stays in flight until serve stops.
    hanging = createServer(() => {});
    await new Promise<void>((resolve) => hanging!.listen(0, '127.0.0.1', resolve));
    const port = (hanging.address() as AddressInfo).port;
    const { child, banner } = await startServe(['--webhook-allow', 'hooks.partner.com:8443', '--webhook-allow', '10.9.8.7']);
    const base = banner.baseUrl as string;
    const key = banner.credentials.apiKeys.full as string;
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    // --webhook-allow: listed hosts are accepted, others refused.
    const status = async (url: string) => (await fetch(`${base}/v1/webhooks`, { method: 'POST', headers, body: JSON.stringify({ url, events: ['message.received'] }) })).status;
    expect([await status('https://hooks.partner.com:8443/x'), await status('http://10.9.8.7/x'), await status('https://hooks.partner.com/x'), await status('http://10.9.8.8/x')]).toEqual([201, 201, 422, 422]);
    const hooks = [`http://127.0.0.1:${port}/hook`, 'https://gone.example.invalid/hook'];
    for (const url of hooks) {
      const res = await fetch(`${base}/v1/webhooks`, { method: 'POST', headers, body: JSON.stringify({ url, events: ['message.status'] }) });
      expect(res.status).toBe(201);
    }
    for (let i = 0; i < 5; i++) {
      const res = await fetch(`${base}/v1/whatsapp/messages`, { method: 'POST', headers, body: JSON.stringify({ to: '15551234567', type: 'text', text: { body: 'hi' } }) });
      expect(res.status).toBe(201);
    }
    // An idle keep-alive client too: close must not wait for it.
    const idle = await open(Number(new URL(base).port));
    const started = performance.now();
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    const code = await exited;
    const elapsedMs = performance.now() - started;
    idle.destroy();
    console.log(`harness serve exited ${elapsedMs.toFixed(0)} ms after SIGTERM (code ${code})`);
    expect(elapsedMs).toBeLessThan(5000);
  });
});
