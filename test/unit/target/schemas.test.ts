import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createAjv, loadApiSchemas, schemaId, SCHEMA_ID_BASE } from '../../../src/schemas/registry.ts';

const REQUIRED = [
  'send-message-request', 'send-message-response', 'listed-message', 'message-list', 'message-status-event-data',
  'sandbox-inbound-request', 'campaign-request', 'campaign-response', 'login-request', 'login-response',
  'oauth-token-request', 'oauth-token-response', 'oauth-error', 'account', 'problem-details', 'webhook-request',
  'webhook', 'webhook-list', 'webhook-list-item', 'webhook-event',
];

describe('schema registry', () => {
  const ajv = createAjv();
  const valid = (name: string, value: unknown): boolean => ajv.getSchema(schemaId(name))!(value) as boolean;

  it('loads every schemas/api file under its $id', () => {
    const files = readdirSync(new URL('../../../schemas/api/', import.meta.url)).filter((f) => f.endsWith('.schema.json'));
    expect([...loadApiSchemas().keys()].sort()).toEqual(files.map((f) => f.replace('.schema.json', '')).sort());
    for (const name of REQUIRED) expect(loadApiSchemas().get(name)?.$id).toBe(`${SCHEMA_ID_BASE}${name}.json`);
  });

  it('compiles every schema in strict mode', () => {
    for (const name of loadApiSchemas().keys()) expect(ajv.getSchema(schemaId(name)), name).toBeTypeOf('function');
  });

  it('accepts extra schemas', () => {
    const extra = createAjv([{ $id: 'https://example.test/x.json', type: 'string' }]);
    expect(extra.getSchema('https://example.test/x.json')!('s')).toBe(true);
  });

  it('requires the Z on timestamps', () => {
    const message = { id: 'm1', from: '15551234567', text: 'hi' };
    expect(valid('listed-message', { ...message, timestamp: '2025-01-01T00:00:00.000Z' })).toBe(true);
    expect(valid('listed-message', { ...message, timestamp: '2025-01-01T00:00:00+00:00' })).toBe(false);
    expect(valid('listed-message', { ...message, timestamp: '2025-13-01T00:00:00Z' })).toBe(false);
  });

  it('accepts each send form and rejects mixtures', () => {
    const to = '15551234567';
    for (const body of [
      { to, type: 'text', text: { body: 'x' } },
      { to, text: 'x' },
      { to, type: 'image', image: { link: 'https://e.test/a.png', caption: 'c' } },
      { to, type: 'document', document: { link: 'https://e.test/a.pdf' } },
      { to, type: 'audio', audio: { link: 'https://e.test/a.mp3' } },
      { to, type: 'video', video: { link: 'https://e.test/a.mp4' } },
      { to, type: 'template', template: { name: 'hello_world', language: { code: 'en_US' } } },
    ]) {
      expect(valid('send-message-request', body), JSON.stringify(body)).toBe(true);
    }
    expect(valid('send-message-request', { to, type: 'image', text: 'x' })).toBe(false);
    expect(valid('send-message-request', { to: '+15551234567', text: 'x' })).toBe(false);
    expect(valid('send-message-request', { to, text: 'x', extra: 1 })).toBe(false);
  });

  it('describes webhook events by type', () => {
    const base = { id: 'evt_1', created_at: '2025-01-01T00:00:00Z' };
    const status = { id: 'm', status: 'failed', timestamp: '2025-01-01T00:00:00Z' };
    expect(valid('webhook-event', { ...base, type: 'message.status', data: status })).toBe(false);
    expect(valid('webhook-event', { ...base, type: 'message.status', data: { ...status, error: { code: 'x', message: 'y' } } })).toBe(true);
    expect(valid('webhook-event', { ...base, type: 'message.received', data: status })).toBe(false);
  });

  it('lets responses carry extra properties but not requests', () => {
    expect(valid('account', { id: 'a', email: 'a@b.co', name: 'n', plan: 'p', created_at: '2025-01-01T00:00:00Z', extra: 1 })).toBe(true);
    expect(valid('login-request', { email: 'a', password: 'b', extra: 1 })).toBe(false);
  });
});
