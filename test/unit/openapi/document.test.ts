/**
 * The exported OpenAPI document: lint-clean under Redocly's `recommended` ruleset (@redocly/openapi-core), and a
 * description of the API as the config describes it (paths, parameter names, page limits, statuses, error
 * schema, rate-limit headers, security schemes, webhooks).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { describe, expect, it } from 'vitest';
import { configFromObject, defaultConfig } from '../../../src/config/index.ts';
import { buildOpenApiDocument } from '../../../src/openapi/index.ts';

type Obj = Record<string, any>;

async function lint(doc: Obj): Promise<{ ruleId: string; pointer: string; message: string }[]> {
  const config = await createConfig({ extends: ['recommended'] });
  const problems = await lintFromString({ source: JSON.stringify(doc), absoluteRef: join(tmpdir(), 'openapi.json'), config });
  return problems.map((p) => ({ ruleId: p.ruleId, pointer: p.location[0]?.pointer ?? '', message: p.message }));
}

describe('harness export openapi: the document', () => {
  it('is lint-clean under Redocly recommended: no error, no warning', async () => {
    const found = await lint(buildOpenApiDocument({ api: defaultConfig().api, serverUrl: 'http://127.0.0.1:8080' }));
    expect(found).toEqual([]);
  });

  it('is lint-clean for a differently described target too', async () => {
    const config = configFromObject({
      api: { paths: { listMessages: '/api/inbox', deleteWebhook: '/api/hooks/{id}' }, rateLimitHeaders: 'x-ratelimit' },
      conformance: { profile: { campaigns: false, problemJson: false } },
    });
    const found = await lint(buildOpenApiDocument({ api: config.api, profile: config.conformance.profile }));
    expect(found).toEqual([]);
  });

  it('describes the default (PROFILE.md) API', () => {
    const doc = buildOpenApiDocument({ api: defaultConfig().api }) as Obj;
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/v1/whatsapp/messages', '/v1/auth/login', '/v1/account', '/v1/oauth/token', '/v1/oauth/authorize', '/v1/email/campaigns', '/v1/email/campaigns/{id}', '/v1/sandbox/inbound', '/v1/webhooks', '/v1/webhooks/{id}']));
    const send = doc.paths['/v1/whatsapp/messages'].post;
    expect(Object.keys(send.responses)).toEqual(expect.arrayContaining(['201', '400', '401', '403', '415', '422', '429']));
    expect(send.security).toEqual([{ apiKey: [] }, { oauth2: ['messages:send'] }]);
    expect(send.parameters.map((p: Obj) => p.name)).toContain('Idempotency-Key');
    const list = doc.paths['/v1/whatsapp/messages'].get;
    expect(list.parameters.find((p: Obj) => p.name === 'limit').schema).toEqual({ type: 'integer', minimum: 1, maximum: 100, default: 20 });
    expect(doc.paths['/v1/account'].get.security).toEqual([{ jwt: [] }, { oauth2: [] }]);
    expect(doc.paths['/v1/webhooks/{id}'].delete.responses['204']).toBeDefined();
    expect(doc.components.securitySchemes.jwt).toMatchObject({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
    expect(doc.components.securitySchemes.oauth2.flows.authorizationCode).toMatchObject({ authorizationUrl: '/v1/oauth/authorize', tokenUrl: '/v1/oauth/token' });
    expect(Object.keys(doc.components.securitySchemes.oauth2.flows.authorizationCode.scopes)).toEqual(['messages:send', 'messages:read', 'campaigns:write', 'webhooks:manage', 'sandbox']);
    expect(Object.keys(doc.webhooks)).toEqual(['message.received', 'message.status']);
    expect(doc.components.responses.TooManyRequests.headers['Retry-After']).toEqual({ $ref: '#/components/headers/Retry-After' });
    expect(Object.keys(doc.components.headers)).toEqual(['RateLimit-Policy', 'RateLimit', 'Retry-After']);
    expect(doc.components.responses.Unauthorized.content['application/problem+json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
    expect(doc.components.schemas.Error).toEqual({ $ref: '#/components/schemas/ProblemDetails' });
    // One error response per status, so each example's `status` is the status it is documented under.
    expect(send.responses['400']).toEqual({ $ref: '#/components/responses/BadRequest' });
    expect(send.responses['422']).toEqual({ $ref: '#/components/responses/UnprocessableContent' });
    expect(doc.paths['/v1/auth/login'].post.responses['401']).toEqual({ $ref: '#/components/responses/LoginFailed' });
    // The send-message forms are components of their own (generators follow refs to whole components only).
    expect(doc.components.schemas.SendMessageRequest.anyOf).toContainEqual({ $ref: '#/components/schemas/SendMessageRequestShortText' });
    expect(doc.components.schemas.SendMessageRequestImage.properties.image).toEqual({ $ref: '#/components/schemas/SendMessageRequestMedia' });
    expect(JSON.stringify(doc)).not.toContain('$defs');
    // Refs point inside the document, never at schema files or $ids.
    expect(JSON.stringify(doc)).not.toMatch(/"\$ref":"(?!#\/)/);
  });

  it("hoists the $defs of a config's own schema too, replacing the built-in schema's", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'openapi-'));
    writeFileSync(
      join(dir, 'send.json'),
      JSON.stringify({
        oneOf: [{ $ref: '#/$defs/text' }, { $ref: '#/$defs/voice' }],
        $defs: {
          text: { type: 'object', required: ['to', 'text'], properties: { to: { type: 'string' }, text: { type: 'string' } } },
          voice: { type: 'object', required: ['to', 'audio'], properties: { to: { type: 'string' }, audio: { $ref: '#/$defs/audio' } } },
          audio: { type: 'object', required: ['url'], properties: { url: { type: 'string', format: 'uri' } } },
        },
      }),
    );
    const config = configFromObject({ api: { schemas: { 'send-message-request': './send.json' } } }, { file: join(dir, 'harness.config.yaml') });
    const doc = buildOpenApiDocument({ api: config.api }) as Obj;
    expect(doc.components.schemas.SendMessageRequest).toEqual({ oneOf: [{ $ref: '#/components/schemas/SendMessageRequestText' }, { $ref: '#/components/schemas/SendMessageRequestVoice' }] });
    expect(doc.components.schemas.SendMessageRequestVoice.properties.audio).toEqual({ $ref: '#/components/schemas/SendMessageRequestAudio' });
    // The built-in schema's forms are gone with it.
    expect(doc.components.schemas.SendMessageRequestImage).toBeUndefined();
    expect(JSON.stringify(doc)).not.toContain('$defs');
  });

  it("follows the config: paths, parameter names, page limits, statuses, error schema, header style, areas", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'openapi-'));
    writeFileSync(join(dir, 'error.json'), JSON.stringify({ type: 'object', required: ['message'], properties: { message: { type: 'string' } } }));
    const config = configFromObject(
      {
        api: {
          paths: { sendMessage: '/api/send', listMessages: '/api/inbox' },
          query: { limit: 'page_size', cursor: 'after' },
          pagination: { defaultLimit: 10, maxLimit: 50 },
          successStatus: { sendMessage: 202 },
          rejectedStatus: [422],
          errorSchema: './error.json',
          rateLimitHeaders: 'ietf-draft-06',
        },
        conformance: { profile: { webhooks: false, oauth: false, problemJson: false } },
      },
      { file: join(dir, 'harness.config.yaml') },
    );
    const doc = buildOpenApiDocument({ api: config.api, profile: config.conformance.profile, serverUrl: 'https://api.example.test' }) as Obj;
    expect(doc.servers).toEqual([{ url: 'https://api.example.test', description: 'the target' }]);
    expect(Object.keys(doc.paths['/api/send'].post.responses)).toEqual(expect.arrayContaining(['202', '422']));
    expect(doc.paths['/api/send'].post.responses['201']).toBeUndefined();
    const names = doc.paths['/api/inbox'].get.parameters.map((p: Obj) => p.name);
    expect(names).toEqual(expect.arrayContaining(['page_size', 'after']));
    expect(doc.paths['/api/inbox'].get.parameters[0].schema).toMatchObject({ maximum: 50, default: 10 });
    expect(doc.components.schemas.Error).toEqual({ type: 'object', required: ['message'], properties: { message: { type: 'string' } } });
    expect(doc.components.responses.UnprocessableContent.content['application/json']).toBeDefined();
    // A config's own error schema gets no examples written for the built-in problem details.
    expect(JSON.stringify(doc.components.responses)).not.toContain('"examples"');
    expect(Object.keys(doc.components.headers)).toEqual(['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After']);
    expect(doc.webhooks).toBeUndefined();
    expect(doc.paths['/v1/oauth/token']).toBeUndefined();
    expect(doc.paths['/v1/webhooks']).toBeUndefined();
    expect(doc.components.schemas.OauthTokenRequest).toBeUndefined();
    expect(await lint(doc)).toEqual([]);
  });
});
