import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAjv, schemaId } from '../../../../src/schemas/registry.ts';
import { buildApp, type BuiltApp, type ListedMessage } from '../../../../src/target/index.ts';
import { bearer } from '../../../helpers/reference-target.ts';

const ajv = createAjv();
const isList = ajv.getSchema(schemaId('message-list'))!;
const isListed = ajv.getSchema(schemaId('listed-message'))!;

interface ListBody {
  data: ListedMessage[];
  pagination: { next: string | null; limit: number };
}

describe('sandbox inbound and GET /v1/whatsapp/messages', () => {
  let target: BuiltApp;
  let auth: { authorization: string };
  const received: ListedMessage[] = [];

  const inbound = (payload: object, headers = auth) =>
    target.app.inject({ method: 'POST', url: '/v1/sandbox/inbound', headers, payload });
  const list = async (query = ''): Promise<{ status: number; body: ListBody & { code?: string } }> => {
    const res = await target.app.inject({ method: 'GET', url: `/v1/whatsapp/messages${query}`, headers: auth });
    return { status: res.statusCode, body: res.json() as ListBody & { code?: string } };
  };
  const walk = async (query: string): Promise<ListedMessage[]> => {
    const items: ListedMessage[] = [];
    let next: string | null = '';
    do {
      const sep = query ? '&' : '?';
      const page = await list(`${query}${next ? `${sep}cursor=${encodeURIComponent(next)}` : ''}`);
      expect(page.status).toBe(200);
      items.push(...page.body.data);
      next = page.body.pagination.next;
    } while (next);
    return items;
  };

  beforeAll(async () => {
    target = await buildApp();
    auth = bearer(target.credentials.apiKeys.full);
    target.events.on('message.received', (m) => received.push(m));
    // 25 messages from two senders, one second apart, plus three sharing one instant (ties broken by id).
    for (let i = 0; i < 25; i++) {
      const ts = new Date(Date.UTC(2025, 0, 1, 0, 0, i)).toISOString();
      expect((await inbound({ from: i % 2 ? '15550000001' : '15550000002', text: `m${i}`, timestamp: ts })).statusCode).toBe(201);
    }
    for (let i = 0; i < 3; i++) await inbound({ from: '15550000003', text: `tie${i}`, timestamp: '2025-01-01T00:00:10Z' });
  });
  afterAll(() => target.app.close());

  it('answers sandbox inbound with 201 and the listed message, and publishes message.received', async () => {
    const res = await inbound({ from: '15550000009', text: 'now' });
    expect(res.statusCode).toBe(201);
    expect(isListed(res.json())).toBe(true);
    expect(received.at(-1)).toEqual(res.json());
  });

  it('rejects a bad sandbox body and requires the sandbox scope', async () => {
    expect((await inbound({ from: 'abc', text: 'x' })).statusCode).toBe(400);
    expect((await inbound({ from: '15550000009', text: 'x', timestamp: '2025-01-01T00:00:00+02:00' })).statusCode).toBe(400);
    expect((await inbound({ from: '15550000009' })).statusCode).toBe(400);
    expect((await inbound({ from: '15550000009', text: 'x' }, { authorization: 'Bearer nope' })).statusCode).toBe(401);
  });

  it('lists newest first with the default limit 20 and a next cursor', async () => {
    const { status, body } = await list();
    expect(status).toBe(200);
    expect(isList(body)).toBe(true);
    expect(body.data).toHaveLength(20);
    expect(body.pagination).toEqual({ next: expect.any(String), limit: 20 });
    const keys = body.data.map((m) => [Date.parse(m.timestamp), m.id] as const);
    for (let i = 1; i < keys.length; i++) {
      const [t0, id0] = keys[i - 1]!;
      const [t1, id1] = keys[i]!;
      expect(t0 > t1 || (t0 === t1 && id0 > id1)).toBe(true);
    }
  });

  it('walks every message exactly once and ends with next: null', async () => {
    const all = await walk('?limit=7');
    expect(all).toHaveLength(29);
    expect(new Set(all.map((m) => m.id)).size).toBe(29);
  });

  it('keeps pages stable while messages arrive', async () => {
    const first = await list('?limit=5');
    for (let i = 0; i < 3; i++) await inbound({ from: '15550000004', text: `late${i}` });
    await inbound({ from: '15550000004', text: 'old', timestamp: '2024-06-01T00:00:00Z' });
    const second = await list(`?limit=5&cursor=${encodeURIComponent(first.body.pagination.next!)}`);
    const firstIds = new Set(first.body.data.map((m) => m.id));
    expect(second.body.data.some((m) => firstIds.has(m.id))).toBe(false);
    expect(Date.parse(second.body.data[0]!.timestamp)).toBeLessThanOrEqual(Date.parse(first.body.data.at(-1)!.timestamp));
  });

  it('filters by exact sender', async () => {
    const items = await walk('?from=15550000001&limit=100');
    expect(items).toHaveLength(12);
    expect(items.every((m) => m.from === '15550000001')).toBe(true);
  });

  it('filters by since (inclusive) and until (exclusive)', async () => {
    const items = await walk('?since=2025-01-01T00:00:05Z&until=2025-01-01T00:00:10Z');
    expect(items.map((m) => m.text)).toEqual(['m9', 'm8', 'm7', 'm6', 'm5']);
    const offset = await walk(`?since=${encodeURIComponent('2025-01-01T01:00:20+01:00')}&until=2025-01-01T00:00:22Z`);
    expect(offset.map((m) => m.text)).toEqual(['m21', 'm20']);
  });

  it.each(['abc', '0', '-1', '101', '1.5', '', '20&limit=30'])('rejects limit=%s with 400', async (limit) => {
    const { status, body } = await list(`?limit=${limit}`);
    expect(status).toBe(400);
    expect(body.code).toBe('validation_failed');
  });

  it.each(['garbage', 'eyJ0IjoxfQ.sig', ''])('rejects cursor=%j with 400 invalid_cursor', async (cursor) => {
    const { status, body } = await list(`?cursor=${encodeURIComponent(cursor)}`);
    expect(status).toBe(400);
    expect(body.code).toBe('invalid_cursor');
  });

  it.each(['yesterday', '2025-01-01', '2025-02-30T00:00:00Z'])('rejects since=%s with 400', async (since) => {
    expect((await list(`?since=${since}`)).status).toBe(400);
  });

  it('rejects a malformed sender with 400', async () => {
    expect((await list('?from=%2B15550000001')).status).toBe(400);
  });
});
