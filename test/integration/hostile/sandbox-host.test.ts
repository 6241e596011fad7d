/**
 * The sandbox keeps its key. A page on another origin that rebinds its DNS name to 127.0.0.1 reaches the target
 * as same-origin, but with its own name in Host: the target once answered any Host and /sandbox/config.json held
 * the full-scope key. Raw requests (node:http, which sends the Host given) to a real target on port 0.
 */
import { request as httpRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../../src/config/index.ts';
import { buildOpenApiDocument } from '../../../src/openapi/index.ts';
import { startReferenceTarget } from '../../../src/target/index.ts';

describe('hostile pages against the browser sandbox: the Host header and the key', () => {
  const get = (port: number, path: string, host: string): Promise<{ status: number; body: string }> =>
    new Promise((resolvePromise, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, path, headers: { host } }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolvePromise({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.end();
    });

  it('a rebinding Host gets 421 for the page, its config and the API; loopback names get a sandbox-only key', async () => {
    const started = await startReferenceTarget({ explorer: { document: buildOpenApiDocument({ api: defaultConfig().api, serverUrl: '/' }) } });
    try {
      const port = Number(new URL(started.baseUrl).port);
      for (const path of ['/sandbox', '/sandbox/config.json', '/sandbox/openapi.json', '/v1/whatsapp/messages']) {
        const refused = await get(port, path, `rebind.attacker.example:${port}`);
        expect(refused.status, path).toBe(421);
        expect(refused.body).not.toMatch(/sk_/);
      }
      const config = await get(port, '/sandbox/config.json', `127.0.0.1:${port}`);
      expect(config.status).toBe(200);
      const { apiKey } = JSON.parse(config.body);
      expect(apiKey).toMatch(/^sk_sandbox_/);
      // None of the target's own keys (the full-scope one above all) is in a file a page can fetch.
      expect(Object.values(started.credentials.apiKeys)).not.toContain(apiKey);
      expect((await get(port, '/sandbox/config.json', `localhost:${port}`)).status).toBe(200);
    } finally {
      await started.close();
    }
  });
});
