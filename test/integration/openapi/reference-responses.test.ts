/**
 * Every response of a conformance run against the reference target matches the exported OpenAPI document: the
 * harness runs its suites through a recording proxy (real HTTP on 127.0.0.1), and each recorded response to an
 * operation the document describes must have a documented status and a body that validates (AJV) against the
 * documented schema. Requests to undocumented routes (the errors suite's unknown paths and wrong methods) are
 * counted, not validated.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceTarget } from '../../../src/target/index.ts';
import { defaultConfig } from '../../../src/config/index.ts';
import { buildOpenApiDocument } from '../../../src/openapi/index.ts';
import { OpenApiResponseValidator, type ResponseToCheck } from '../../helpers/openapi-validator.ts';
import { runHarness } from '../../helpers/run-harness.ts';
import { startFaultyTarget, type FaultyTarget } from '../../targets/faulty-proxy.ts';

const recorded: ResponseToCheck[] = [];
let target: FaultyTarget;

beforeAll(async () => {
  target = await startFaultyTarget({
    onResponse(req, res) {
      recorded.push({ method: req.method, path: req.path, status: res.status, contentType: res.headers['content-type'], body: res.body });
      return res;
    },
  });
  // Every suite but the long rate-limit and standing ones: they add waiting, not new shapes of response.
  await runHarness({
    baseUrl: target.baseUrl,
    credentials: target.credentials,
    suites: ['smoke', 'auth', 'schemas', 'pagination', 'email', 'idempotency', 'inputs', 'errors', 'webhooks'],
    config: { load: { scenarios: [] } },
  });
}, 240_000);

afterAll(async () => {
  await target?.close();
});

describe('the exported OpenAPI document against a reference run', () => {
  it('documents the status and the body schema of every response', () => {
    const validator = new OpenApiResponseValidator(buildOpenApiDocument({ api: defaultConfig().api }));
    const documented = recorded.filter((r) => validator.operationOf(r.method, r.path));
    expect(documented.length).toBeGreaterThan(100);
    const problems = [...new Set(documented.flatMap((r) => validator.problems(r)))];
    expect(problems).toEqual([]);
    // The run reached every documented operation, and errors as well as successes.
    const operations = new Set(documented.map((r) => `${r.method} ${validator.operationOf(r.method, r.path)}`));
    expect(operations.size).toBeGreaterThanOrEqual(12);
    for (const status of [200, 201, 204, 302, 400, 401, 403, 404, 415]) expect(documented.map((r) => r.status)).toContain(status);
  });

  it("documents the webhook deliveries under webhooks: (body schema and signature headers)", async () => {
    const doc = buildOpenApiDocument({ api: defaultConfig().api }) as Record<string, any>;
    const deliveries: { headers: Record<string, string | string[] | undefined>; body: string }[] = [];
    const receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        deliveries.push({ headers: req.headers, body });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const reference = await startReferenceTarget({ statusDelaysMs: { delivered: 10, read: 10 } });
    try {
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      const auth = { authorization: `Bearer ${reference.credentials.apiKeys.full}`, 'content-type': 'application/json' };
      const post = (path: string, body: unknown) => fetch(`${reference.baseUrl}${path}`, { method: 'POST', headers: auth, body: JSON.stringify(body) });
      expect((await post('/v1/webhooks', { url, events: ['message.received', 'message.status'] })).status).toBe(201);
      expect((await post('/v1/sandbox/inbound', { from: '14155550123', text: 'hi' })).status).toBe(201);
      expect((await post('/v1/whatsapp/messages', { to: '14155550123', text: 'hi' })).status).toBe(201);
      // Bounded wait: one received event and the delivered/read status events.
      for (let i = 0; i < 100 && deliveries.length < 3; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      await reference.close();
      await new Promise((resolve) => receiver.close(resolve));
    }
    const types = new Set(deliveries.map((d) => JSON.parse(d.body).type as string));
    expect(types).toEqual(new Set(['message.received', 'message.status']));
    const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => Ajv2020;
    const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
    ajv.addSchema({ ...doc, $id: 'https://openapi.test/openapi.json' });
    for (const delivery of deliveries) {
      const event = JSON.parse(delivery.body);
      const operation = doc.webhooks[event.type].post;
      for (const header of operation.parameters.filter((p: { in: string }) => p.in === 'header')) expect(delivery.headers[header.name], header.name).toBeTruthy();
      const pointer = `#/webhooks/${event.type}/post/requestBody/content/application~1json/schema`;
      const validate = ajv.getSchema(`https://openapi.test/openapi.json${pointer}`)!;
      expect(validate(event), ajv.errorsText(validate.errors)).toBe(true);
    }
  }, 30_000);
});
