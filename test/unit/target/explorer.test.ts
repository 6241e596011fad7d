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
    expect(page.body).not.toMatch(/<script>(?!<)/);
    expect(page.body).toContain('/sandbox/swagger-ui-bundle.js');
    for (const asset of ['/sandbox/swagger-ui-bundle.js', '/sandbox/swagger-ui.css', '/sandbox/init.js']) {
      expect((await app.inject({ method: 'GET', url: asset })).statusCode, asset).toBe(200);
    }
    const shown = (await app.inject({ method: 'GET', url: '/sandbox/openapi.json' })).json();
    expect(shown.servers).toEqual([{ url: '/', description: 'the target' }]);
    expect(shown.paths['/v1/auth/login'].post.requestBody.content['application/json'].example).toEqual(credentials.login);
    // The document handed in is not changed.
    expect((document as any).paths['/v1/auth/login'].post.requestBody.content['application/json'].example.email).toBe('user@example.com');
    expect((await app.inject({ method: 'GET', url: '/sandbox/config.json' })).json()).toEqual({ apiKey: credentials.apiKeys.full });
    await app.close();
  });
});
