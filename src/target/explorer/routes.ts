/**
 * GET /sandbox: the browser sandbox of SERVICE-SPEC §1 ("a browser-based sandbox for test calls"), an API
 * explorer whose "try it" calls this target. Registered only when the caller hands in an OpenAPI document
 * (`harness serve` does): the target does not build one itself, so it stays independent of the harness.
 * The explorer is this package's own two files (client/explorer.js and .css, ~20 KB), read once and served
 * from here: no dependency, so no install script and no telemetry for whoever installs the package.
 */
import { readFileSync } from 'node:fs';
import type { FastifyPluginAsync } from 'fastify';
import { packagePath } from '../../package-root.ts';
import type { ReferenceCredentials } from '../types.ts';
import { EXPLORER_CSP, EXPLORER_HTML } from './page.ts';

/** The explorer's files (shipped under src/target/explorer/client/, see package.json `files`), with their media types. */
const ASSETS: Record<string, string> = {
  'explorer.js': 'text/javascript; charset=utf-8',
  'explorer.css': 'text/css; charset=utf-8',
};

export interface ExplorerOptions {
  /** The OpenAPI document to show; its server URL should be "/" (this target). */
  document: Record<string, unknown>;
  credentials: ReferenceCredentials;
  /** The key /sandbox/config.json hands to the page: sandbox-only and limited (auth/api-keys.ts), never the full one. */
  sandboxKey: string;
}

export const explorerRoutes: FastifyPluginAsync<ExplorerOptions> = async (app, { document, credentials, sandboxKey }) => {
  const assets = new Map(Object.entries(ASSETS).map(([file, type]) => [file, { type, body: readFileSync(packagePath(`src/target/explorer/client/${file}`)) }]));
  const shown = withTestAccount(document, credentials);
  const config = { apiKey: sandboxKey };
  const page = { 'Content-Security-Policy': EXPLORER_CSP, 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer', 'X-Content-Type-Options': 'nosniff' };

  for (const path of ['/sandbox', '/sandbox/']) {
    app.get(path, async (_request, reply) => reply.headers(page).type('text/html; charset=utf-8').send(EXPLORER_HTML));
  }
  app.get('/sandbox/openapi.json', async (_request, reply) => reply.header('Cache-Control', 'no-store').send(shown));
  app.get('/sandbox/config.json', async (_request, reply) => reply.header('Cache-Control', 'no-store').send(config));
  for (const [file, asset] of assets) {
    app.get(`/sandbox/${file}`, async (_request, reply) => reply.header('Cache-Control', 'no-cache').header('X-Content-Type-Options', 'nosniff').type(asset.type).send(asset.body));
  }
};

/** The document with the login example set to this target's test account, so "try it" on login works as is. */
function withTestAccount(document: Record<string, unknown>, credentials: ReferenceCredentials): Record<string, unknown> {
  const copy = structuredClone(document) as { paths?: Record<string, Record<string, any>> };
  for (const operations of Object.values(copy.paths ?? {})) {
    const login = operations.post;
    const json = login?.operationId === 'login' ? login.requestBody?.content?.['application/json'] : undefined;
    if (json) json.example = { email: credentials.login.email, password: credentials.login.password };
  }
  return copy as Record<string, unknown>;
}
