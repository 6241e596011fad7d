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
    expect((await app.inject({ method: 'GET', url: '/sandbox/config.json' })).json()).toEqual({ apiKey: credentials.apiKeys.full });
    await app.close();
  });
});
