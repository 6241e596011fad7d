/**
 * Init from a document alone: an OpenAPI 3.1 YAML file whose errors are plain application/json is read into
 * choices with JSON-pointer evidence, its error schema is copied beside the config, and the drafted file loads.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.ts';
import { deriveSchema } from '../../src/init/error-schema.ts';
import { runInit } from '../../src/init/run-init.ts';

const DOC = `openapi: 3.1.0
info: {title: Messages, version: "2"}
servers: [{url: https://api.example.com/api/v2}]
components:
  schemas:
    Error:
      type: object
      required: [error]
      properties:
        error:
          type: object
          required: [code, message]
          properties: {code: {type: string}, message: {type: string}}
  securitySchemes:
    key: {type: apiKey, in: header, name: X-Api-Key}
paths:
  /whatsapp/messages:
    post:
      responses:
        "200": {description: sent}
        "422": {description: rejected, content: {application/json: {schema: {$ref: "#/components/schemas/Error"}}}}
    get:
      parameters:
        - {name: size, in: query, schema: {type: integer, maximum: 25, default: 5}}
        - {name: starting_after, in: query, schema: {type: string}}
      responses: {"200": {description: page}}
  /webhooks/{hookId}:
    delete: {responses: {"200": {description: gone}}}
`;

describe('harness init from a document alone', () => {
  it('reads an OpenAPI 3.1 YAML file, copies its error schema beside the config, and the draft loads', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'harness-init-doc-'));
    const file = join(dir, 'openapi.yaml');
    writeFileSync(file, DOC);
    const lines: string[] = [];
    const outcome = await runInit({ openapi: file, out: join(dir, 'harness.config.yaml'), force: false, env: {}, log: (l) => lines.push(l) });
    const config = loadConfig(outcome.configFile, { env: {} });
    expect(config.api.paths).toMatchObject({ sendMessage: '/api/v2/whatsapp/messages', listMessages: '/api/v2/whatsapp/messages', deleteWebhook: '/api/v2/webhooks/{id}' });
    expect(config.api.query).toMatchObject({ limit: 'size', cursor: 'starting_after' });
    expect(config.api.pagination).toMatchObject({ maxLimit: 25, defaultLimit: 5 });
    expect(config.api.successStatus).toMatchObject({ sendMessage: 200, deleteWebhook: 200 });
    expect(config.api.rejectedStatus).toEqual([422]);
    expect(config.conformance.profile.problemJson).toBe(false);
    expect(JSON.parse(readFileSync(outcome.errorSchemaFile!, 'utf8'))).toMatchObject({ required: ['error'], properties: { error: { required: ['code', 'message'] } } });
    const text = readFileSync(outcome.configFile, 'utf8');
    expect(text).toContain('# #/paths/~1whatsapp~1messages/get/parameters/0/schema/maximum — departs from PROFILE.md (100)');
    expect(text).toContain('# baseUrl: https://api.example.com');
    expect(lines.join('\n')).toContain('note: security scheme "key" sends the key in header "X-Api-Key"');
  });
});

describe('deriveSchema', () => {
  it('requires what every sample has and types what was seen, leaving the object open', () => {
    const schema = deriveSchema([{ error: { code: 'a', message: 'b', details: [{ field: '/to', message: 'x' }] } }, { error: { code: 'c', message: 'd' } }]);
    expect(schema).toEqual({
      type: 'object',
      required: ['error'],
      properties: {
        error: {
          type: 'object',
          required: ['code', 'message'],
          properties: {
            code: { type: 'string' },
            details: { type: 'array', items: { type: 'object', required: ['field', 'message'], properties: { field: { type: 'string' }, message: { type: 'string' } } } },
            message: { type: 'string' },
          },
        },
      },
    });
  });
});
