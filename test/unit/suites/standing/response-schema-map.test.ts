import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../../../src/config/defaults.ts';
import { operationOf, pathUnderBase, schemaForResponse, type ResponseFacts } from '../../../../suites/standing/lib/response-schema-map.ts';

const paths = defaultConfig().api.paths;
const JSON_CT = 'application/json; charset=utf-8';
const PROBLEM = 'application/problem+json';

function schema(method: string, path: string, status: number, contentType: string | undefined = JSON_CT, checkErrors = true): string | undefined {
  const facts: ResponseFacts = { method, path, status, ...(contentType ? { contentType } : {}) };
  return schemaForResponse(facts, { paths, checkErrors });
}

describe('response → schema', () => {
  it.each([
    ['POST', '/v1/whatsapp/messages', 201, 'send-message-response'],
    ['GET', '/v1/whatsapp/messages', 200, 'message-list'],
    ['POST', '/v1/auth/login', 200, 'login-response'],
    ['GET', '/v1/account', 200, 'account'],
    ['POST', '/v1/oauth/token', 200, 'oauth-token-response'],
    ['POST', '/v1/email/campaigns', 201, 'campaign-response'],
    ['GET', '/v1/email/campaigns/cmp_123', 200, 'campaign-response'],
    ['POST', '/v1/sandbox/inbound', 201, 'listed-message'],
    ['POST', '/v1/webhooks', 201, 'webhook'],
    ['GET', '/v1/webhooks', 200, 'webhook-list'],
  ])('%s %s %i → %s', (method, path, status, expected) => {
    expect(schema(method, path, status)).toBe(expected);
  });

  it('maps client errors to the error schema, and the token endpoint\'s to oauth-error (but its 429 to error)', () => {
    expect(schema('GET', '/v1/whatsapp/messages', 400, PROBLEM)).toBe('error');
    expect(schema('POST', '/v1/whatsapp/messages', 429, PROBLEM)).toBe('error');
    expect(schema('GET', '/v1/nowhere', 404, PROBLEM)).toBe('error');
    expect(schema('PUT', '/v1/whatsapp/messages', 405, PROBLEM)).toBe('error');
    expect(schema('POST', '/v1/oauth/token', 400)).toBe('oauth-error');
    expect(schema('POST', '/v1/oauth/token', 401)).toBe('oauth-error');
    expect(schema('POST', '/v1/oauth/token', 429, PROBLEM)).toBe('error');
    expect(schema('POST', '/v1/oauth/authorize', 400, PROBLEM)).toBe('error');
  });

  it('demands nothing of redirects, 204, HEAD, HTML, 5xx, errors without JSON, or schemaless successes', () => {
    expect(schema('POST', '/v1/oauth/authorize', 302, undefined)).toBeUndefined();
    expect(schema('GET', '/v1/oauth/authorize', 200, 'text/html; charset=utf-8')).toBeUndefined();
    expect(schema('DELETE', '/v1/webhooks/wh_1', 204, undefined)).toBeUndefined();
    expect(schema('DELETE', '/v1/webhooks/wh_1', 200)).toBeUndefined();
    expect(schema('HEAD', '/v1/whatsapp/messages', 200)).toBeUndefined();
    expect(schema('GET', '/v1/whatsapp/messages', 500, PROBLEM)).toBeUndefined();
    expect(schema('GET', '/v1/whatsapp/messages', 503, 'text/plain')).toBeUndefined();
    expect(schema('GET', '/v1/whatsapp/messages', 400, 'text/plain')).toBeUndefined();
    expect(schema('GET', '/v1/unknown', 200)).toBeUndefined();
  });

  it('skips error bodies when the problemJson area is off', () => {
    expect(schema('GET', '/v1/whatsapp/messages', 400, PROBLEM, false)).toBeUndefined();
    expect(schema('GET', '/v1/whatsapp/messages', 200, JSON_CT, false)).toBe('message-list');
  });

  it('follows the configured paths, not literals', () => {
    const custom = { ...paths, listMessages: '/api/v2/messages', sendMessage: '/api/v2/messages', getCampaign: '/api/v2/campaigns/{id}/' };
    expect(operationOf(custom, 'GET', '/api/v2/messages')).toBe('listMessages');
    expect(operationOf(custom, 'POST', '/api/v2/messages')).toBe('sendMessage');
    expect(operationOf(custom, 'GET', '/api/v2/campaigns/abc')).toBe('getCampaign');
    expect(operationOf(custom, 'GET', '/api/v2/campaigns/abc/def')).toBeUndefined();
    expect(operationOf(custom, 'GET', '/v1/whatsapp/messages')).toBeUndefined();
  });
});

describe('pathUnderBase', () => {
  it('strips the base path and query, and refuses other origins or paths outside the base', () => {
    expect(pathUnderBase('http://h:1/v1/account?x=1', 'http://h:1')).toBe('/v1/account');
    expect(pathUnderBase('http://h:1/api/v1/account', 'http://h:1/api/')).toBe('/v1/account');
    expect(pathUnderBase('http://h:1/apix/v1/account', 'http://h:1/api')).toBeUndefined();
    expect(pathUnderBase('http://other:1/v1/account', 'http://h:1')).toBeUndefined();
  });
});
