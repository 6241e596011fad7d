/** The reference target's /sandbox routes (inject): only with a document, strict CSP, assets served locally. */
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../../src/config/index.ts';
import { buildOpenApiDocument } from '../../../src/openapi/index.ts';
import { buildApp } from '../../../src/target/index.ts';

describe('the /sandbox explorer of the reference target', () => {
  it('is absent unless a document is handed in', async () => {
    const { app } = await buildApp();
    expect((await app.inject({ method: 'GET', url: '/sandbox' })).statusCode).toBe(404);
    await app.close();
  });

  it('serves the page, its assets, the document with the test account as login example, and the key', async () => {
    const document = buildOpenApiDocument({ api: defaultConfig().api, serverUrl: '/' });
    const { app, credentials } = await buildApp({ explorer: { document } });
    const page = await app.inject({ method: 'GET', url: '/sandbox' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    // No inline script and no inline style: the explorer is the package's own two files.
    expect(page.headers['content-security-policy']).not.toContain('unsafe-inline');
    expect(page.body).not.toMatch(/<script>(?!<)|<style|style=/);
    expect(page.body).toContain('/sandbox/explorer.js');
    for (const [asset, type] of [['/sandbox/explorer.js', 'text/javascript'], ['/sandbox/explorer.css', 'text/css']]) {
      const answer = await app.inject({ method: 'GET', url: asset });
      expect(answer.statusCode, asset).toBe(200);
      expect(answer.headers['content-type'], asset).toContain(type);
    }
    // Markup is never built from document or response text.
    const script = (await app.inject({ method: 'GET', url: '/sandbox/explorer.js' })).body;
    expect(script).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(/);
    const shown = (await app.inject({ method: 'GET', url: '/sandbox/openapi.json' })).json();
    expect(shown.servers).toEqual([{ url: '/', description: 'the target' }]);
    expect(shown.paths['/v1/auth/login'].post.requestBody.content['application/json'].example).toEqual(credentials.login);
    // The document handed in is not changed.
    expect((document as any).paths['/v1/auth/login'].post.requestBody.content['application/json'].example.email).toBe('user@example.com');
    // A sandbox-only key, never one of the target's own (the full-scope key a rebinding page would want).
    const { apiKey } = (await app.inject({ method: 'GET', url: '/sandbox/config.json' })).json();
    expect(apiKey).toMatch(/^sk_sandbox_/);
    expect(Object.values(credentials.apiKeys)).not.toContain(apiKey);
    await app.close();
  });

  it("the sandbox key tries messages and the inbound simulation, but cannot manage webhooks or campaigns", async () => {
    const document = buildOpenApiDocument({ api: defaultConfig().api, serverUrl: '/' });
    const { app } = await buildApp({ explorer: { document } });
    const { apiKey } = (await app.inject({ method: 'GET', url: '/sandbox/config.json' })).json();
    const auth = { authorization: `Bearer ${apiKey}` };
    const sent = await app.inject({ method: 'POST', url: '/v1/whatsapp/messages', headers: auth, payload: { to: '14155550123', type: 'text', text: { body: 'hi' } } });
    expect(sent.statusCode).toBe(201);
    expect((await app.inject({ method: 'GET', url: '/v1/whatsapp/messages', headers: auth })).statusCode).toBe(200);
    const webhook = await app.inject({ method: 'POST', url: '/v1/webhooks', headers: auth, payload: { url: 'http://127.0.0.1:9/hook', events: ['message.received'] } });
    expect(webhook.statusCode).toBe(403);
    await app.close();
  });

  it('answers only the hosts it serves: another Host (a DNS-rebinding page) gets 421 for the page, its key and the API', async () => {
    const document = buildOpenApiDocument({ api: defaultConfig().api, serverUrl: '/' });
    const { app, credentials } = await buildApp({ explorer: { document } });
    for (const url of ['/sandbox', '/sandbox/config.json', '/sandbox/openapi.json', '/v1/whatsapp/messages']) {
      const res = await app.inject({ method: 'GET', url, headers: { host: 'rebind.attacker.example:8080', authorization: `Bearer ${credentials.apiKeys.full}` } });
      expect(res.statusCode, url).toBe(421);
      expect(res.body).not.toContain('sk_');
      expect(res.json()).toMatchObject({ code: 'host_not_allowed', status: 421 });
    }
    for (const host of ['localhost:3000', '127.0.0.1:3000', '[::1]:3000', 'app.localhost', 'LOCALHOST']) {
      expect((await app.inject({ method: 'GET', url: '/sandbox/config.json', headers: { host } })).statusCode, host).toBe(200);
    }
    await app.close();
    // Configurable: reference.allowedHosts names more hosts ("*" all of them); the listen address is one too.
    const named = await buildApp({ explorer: { document }, allowedHosts: ['sandbox.test'], host: '192.0.2.10' });
    expect((await named.app.inject({ method: 'GET', url: '/sandbox', headers: { host: 'sandbox.test:80' } })).statusCode).toBe(200);
    expect((await named.app.inject({ method: 'GET', url: '/sandbox', headers: { host: '192.0.2.10:8080' } })).statusCode).toBe(200);
    expect((await named.app.inject({ method: 'GET', url: '/sandbox', headers: { host: 'other.test' } })).statusCode).toBe(421);
    await named.app.close();
    const open = await buildApp({ explorer: { document }, allowedHosts: ['*'] });
    expect((await open.app.inject({ method: 'GET', url: '/sandbox', headers: { host: 'anything.example' } })).statusCode).toBe(200);
    await open.app.close();
  });
});
