import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAjv, schemaId } from '../../../../src/schemas/registry.ts';
import { buildApp, type BuiltApp } from '../../../../src/target/index.ts';
import { bearer, TEXT_MESSAGE } from '../../../helpers/reference-target.ts';

const isProblem = createAjv().getSchema(schemaId('problem-details'))!;

describe('general HTTP behaviour', () => {
  let target: BuiltApp;
  let auth: { authorization: string };
  beforeAll(async () => {
    target = await buildApp();
    auth = bearer(target.credentials.apiKeys.full);
  });
  afterAll(() => target.app.close());

  const expectProblem = (res: { statusCode: number; headers: Record<string, unknown>; json(): unknown }, status: number, code: string) => {
    expect(res.statusCode).toBe(status);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(isProblem(res.json()), JSON.stringify(isProblem.errors)).toBe(true);
    expect(res.json()).toMatchObject({ status, code });
    expect(res.headers['x-request-id']).toBeTruthy();
  };

  it('answers an unknown path with 404 not_found', async () => {
    expectProblem(await target.app.inject({ method: 'GET', url: '/v1/nothing-here' }), 404, 'not_found');
    expectProblem(await target.app.inject({ method: 'DELETE', url: '/v2/whatsapp/messages' }), 404, 'not_found');
  });

  it('answers a known path with a wrong method with 405 and Allow', async () => {
    const res = await target.app.inject({ method: 'PUT', url: '/v1/whatsapp/messages', headers: auth });
    expectProblem(res, 405, 'method_not_allowed');
    expect(res.headers.allow).toBe('GET, HEAD, POST');
    const param = await target.app.inject({ method: 'POST', url: '/v1/webhooks/wh_1', headers: auth });
    expectProblem(param, 405, 'method_not_allowed');
    expect(param.headers.allow).toBe('DELETE');
  });

  it('answers a POST whose body is not JSON with 415', async () => {
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
      const res = await target.app.inject({ method: 'POST', url: '/v1/whatsapp/messages', headers: { ...auth, 'content-type': contentType }, payload: 'to=1' });
      expectProblem(res, 415, 'unsupported_media_type');
    }
  });

  it('answers malformed JSON with 400 invalid_json', async () => {
    for (const payload of ['{"to":', '[1,', '{"__proto__":{"x":1}}']) {
      const res = await target.app.inject({ method: 'POST', url: '/v1/whatsapp/messages', headers: { ...auth, 'content-type': 'application/json' }, payload });
      expectProblem(res, 400, 'invalid_json');
    }
  });

  it('answers an oversized body with 413, while a 1 MiB campaign still fits', async () => {
    const huge = JSON.stringify({ to: '15551234567', text: 'x'.repeat(3 * 1024 * 1024) });
    expectProblem(await target.app.inject({ method: 'POST', url: '/v1/whatsapp/messages', headers: { ...auth, 'content-type': 'application/json' }, payload: huge }), 413, 'payload_too_large');
    const campaign = { name: 'n', subject: 's', content: 'x'.repeat(1024 * 1024), recipients: ['a@example.com'] };
    expect((await target.app.inject({ method: 'POST', url: '/v1/email/campaigns', headers: auth, payload: campaign })).statusCode).toBe(201);
  });

  it('answers a malformed URL with a 400 problem', async () => {
    expectProblem(await target.app.inject({ method: 'GET', url: '/v1/%zz' }), 400, 'bad_request');
  });

  it('echoes a valid X-Request-Id and generates one otherwise, on every kind of answer', async () => {
    const echoed = await target.app.inject({ method: 'GET', url: '/nope', headers: { 'x-request-id': 'trace-42' } });
    expect(echoed.headers['x-request-id']).toBe('trace-42');
    const replaced = await target.app.inject({ method: 'GET', url: '/nope', headers: { 'x-request-id': 'bad id\twith spaces' } });
    expect(replaced.headers['x-request-id']).toMatch(/^req_/);
    const created = await target.app.inject({ method: 'POST', url: '/v1/whatsapp/messages', headers: { ...auth, 'x-request-id': 'r1' }, payload: TEXT_MESSAGE });
    expect(created.headers['x-request-id']).toBe('r1');
  });

  it('answers HEAD on a list like GET without a body', async () => {
    const res = await target.app.inject({ method: 'HEAD', url: '/v1/whatsapp/messages', headers: auth });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('');
  });
});

describe('bodiless requests that still declare JSON', () => {
  it('treat an empty JSON body as no body: DELETE works, POST is a validation error', async () => {
    const target = await buildApp();
    try {
      const auth = { ...bearer(target.credentials.apiKeys.full), 'content-type': 'application/json' };
      const hook = await target.app.inject({ method: 'POST', url: '/v1/webhooks', headers: auth, payload: { url: 'https://a.example/h', events: ['message.status'] } });
      const id = (hook.json() as { id: string }).id;
      expect((await target.app.inject({ method: 'DELETE', url: `/v1/webhooks/${id}`, headers: auth })).statusCode).toBe(204);
      const post = await target.app.inject({ method: 'POST', url: '/v1/whatsapp/messages', headers: auth, payload: '' });
      expect(post.statusCode).toBe(400);
      expect(post.json()).toMatchObject({ code: 'validation_failed' });
    } finally {
      await target.app.close();
    }
  });
});
