import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAjv, schemaId } from '../../../../src/schemas/registry.ts';
import { buildApp, type BuiltApp, type MessageStatusData } from '../../../../src/target/index.ts';
import { bearer, TEXT_MESSAGE } from '../../../helpers/reference-target.ts';

const ajv = createAjv();
const isSendResponse = ajv.getSchema(schemaId('send-message-response'))!;
const isStatusEvent = ajv.getSchema(schemaId('message-status-event-data'))!;

describe('POST /v1/whatsapp/messages', () => {
  let target: BuiltApp;
  let auth: { authorization: string };
  beforeAll(async () => {
    target = await buildApp({ statusDelaysMs: { delivered: 5, read: 10 } });
    auth = bearer(target.credentials.apiKeys.full);
  });
  afterAll(() => target.app.close());

  const send = (payload: unknown, headers: Record<string, string> = {}) =>
    target.app.inject({ method: 'POST', url: '/v1/whatsapp/messages', headers: { ...auth, ...headers }, payload: payload as object });

  it.each([
    ['long text', TEXT_MESSAGE],
    ['short text', { to: '15551234567', text: 'hi' }],
    ['image', { to: '15551234567', type: 'image', image: { link: 'https://cdn.example.com/a.png', caption: 'A' } }],
    ['document', { to: '15551234567', type: 'document', document: { link: 'https://cdn.example.com/a.pdf' } }],
    ['audio', { to: '15551234567', type: 'audio', audio: { link: 'https://cdn.example.com/a.ogg' } }],
    ['video', { to: '15551234567', type: 'video', video: { link: 'https://cdn.example.com/a.mp4' } }],
    ['template', { to: '15551234567', type: 'template', template: { name: 'order_update', language: { code: 'en_US' } } }],
  ])('sends a %s message: 201 {id, status: sent, timestamp Z}', async (_name, body) => {
    const res = await send(body);
    expect(res.statusCode).toBe(201);
    expect(isSendResponse(res.json())).toBe(true);
    expect(res.json()).toMatchObject({ status: 'sent', timestamp: expect.stringMatching(/Z$/) });
  });

  it.each([
    ['empty body text', { to: '15551234567', type: 'text', text: { body: '' } }, '/text/body', 'must NOT have fewer than 1 characters'],
    ['overlong text', { to: '15551234567', text: 'x'.repeat(4097) }, '/text', 'must NOT have more than 4096 characters'],
    ['missing to', { type: 'text', text: { body: 'x' } }, '/to', 'is required'],
    ['number with plus', { to: '+15551234567', text: 'x' }, '/to', 'must match pattern "^[1-9][0-9]{6,14}$"'],
    ['leading zero', { to: '05551234567', text: 'x' }, '/to', 'must match pattern "^[1-9][0-9]{6,14}$"'],
    ['unknown type', { to: '15551234567', type: 'sticker', sticker: {} }, '/type', expect.stringContaining('must be one of')],
    ['missing media', { to: '15551234567', type: 'image' }, '/image', 'is required'],
    ['media without link', { to: '15551234567', type: 'video', video: { caption: 'c' } }, '/video/link', 'is required'],
    ['bad link', { to: '15551234567', type: 'image', image: { link: 'ftp://x' } }, '/image/link', expect.any(String)],
    ['template without language', { to: '15551234567', type: 'template', template: { name: 'x' } }, '/template/language', 'is required'],
    ['extra field', { ...TEXT_MESSAGE, priority: 'high' }, '/priority', 'is not allowed'],
    ['type text with a media key', { to: '15551234567', type: 'text', image: { link: 'https://a.b/c' } }, '/text', 'is required'],
    ['not an object', ['x'], '', 'must be a JSON object'],
  ])('rejects %s with 400 and a precise errors[].path', async (_name, body, path, message) => {
    const res = await send(body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation_failed' });
    expect((res.json() as { errors: unknown[] }).errors).toContainEqual({ path, message });
  });

  describe('Idempotency-Key', () => {
    it('replays the first answer for the same key and body, and sends nothing twice', async () => {
      const sent: string[] = [];
      const off = target.events.on('message.status', (e) => e.status === 'sent' && sent.push(e.id));
      const first = await send(TEXT_MESSAGE, { 'idempotency-key': 'order-1' });
      const again = await send({ text: { body: 'hello' }, type: 'text', to: '15551234567' }, { 'idempotency-key': '"order-1"' });
      off();
      expect(first.statusCode).toBe(201);
      expect(again.statusCode).toBe(201);
      expect(again.body).toBe(first.body);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(sent).toEqual([(first.json() as { id: string }).id]);
    });

    it('answers 422 conflict for the same key with another body', async () => {
      await send(TEXT_MESSAGE, { 'idempotency-key': 'order-2' });
      const res = await send({ ...TEXT_MESSAGE, to: '15557654321' }, { 'idempotency-key': 'order-2' });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ code: 'conflict' });
    });

    it('scopes keys per credential', async () => {
      const a = await send(TEXT_MESSAGE, { 'idempotency-key': 'shared' });
      const b = await send(TEXT_MESSAGE, { 'idempotency-key': 'shared', ...bearer(target.credentials.apiKeys.second) });
      expect((b.json() as { id: string }).id).not.toBe((a.json() as { id: string }).id);
    });

    it('rejects an unusable key with 400', async () => {
      const res = await send(TEXT_MESSAGE, { 'idempotency-key': 'x'.repeat(300) });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'invalid_idempotency_key' });
    });

    it('does not store rejected requests', async () => {
      expect((await send({ to: 'bad', text: 'x' }, { 'idempotency-key': 'k-400' })).statusCode).toBe(400);
      expect((await send(TEXT_MESSAGE, { 'idempotency-key': 'k-400' })).statusCode).toBe(201);
    });
  });

  describe('status progression', () => {
    /** Sends one message and resolves with its first `count` status events (other messages' events are ignored). */
    const collect = async (to: string, count: number): Promise<MessageStatusData[]> => {
      const seen: MessageStatusData[] = [];
      let id: string | undefined;
      let wake = (): void => {};
      const mine = (): MessageStatusData[] => seen.filter((e) => e.id === id);
      const off = target.events.on('message.status', (e) => {
        seen.push(e);
        wake();
      });
      const res = await send({ to, text: 'x' });
      id = (res.json() as { id: string }).id;
      await new Promise<void>((resolve) => {
        wake = () => mine().length >= count && resolve();
        wake();
      });
      off();
      return mine().slice(0, count);
    };

    it('moves sent → delivered → read', async () => {
      const events = await collect('15551234567', 3);
      expect(events.map((e) => e.status)).toEqual(['sent', 'delivered', 'read']);
      for (const e of events) expect(isStatusEvent(e)).toBe(true);
    });

    it('fails numbers starting with 999, with an error', async () => {
      const events = await collect('9995551234', 2);
      expect(events.map((e) => e.status)).toEqual(['sent', 'failed']);
      expect(events[1]).toMatchObject({ error: { code: 'recipient_unreachable' } });
      expect(isStatusEvent(events[1])).toBe(true);
    });
  });
});
