/**
 * Security misconfiguration (OWASP API8:2023): CORS that hands any origin the caller's credentials, and JSON
 * answers a browser may sniff into HTML or script. Both SHOULD: the CORS rule is OWASP API8's ("a CORS policy
 * is missing or improperly set") read with the Fetch Standard's credentials mode; `nosniff` on every answer is
 * OWASP ASVS 4.0.3 V14.4.4 and the OWASP REST Security Cheat Sheet's security headers.
 */
import { randomBytes } from 'node:crypto';
import { defineCheck } from '../../src/conformance/check.ts';
import { fail } from '../../src/conformance/outcomes.ts';
import { listMessages } from '../../src/conformance/operations.ts';
import type { HttpResponse } from '../../src/http/client.ts';

/** An origin no deployment trusts: `.invalid` never resolves (RFC 6761 §6.4). */
function foreignOrigin(): string {
  return `https://harness-${randomBytes(4).toString('hex')}.invalid`;
}

function reflectsWithCredentials(res: HttpResponse, origin: string): boolean {
  const allowed = res.header('access-control-allow-origin')?.trim();
  const credentials = res.header('access-control-allow-credentials')?.trim().toLowerCase();
  return credentials === 'true' && (allowed === origin || allowed === '*' || allowed === 'null');
}

export const corsNoReflectedCredentials = defineCheck({
  id: 'security.cors.no-reflected-origin-with-credentials',
  suite: 'security',
  title: 'CORS never allows an arbitrary Origin together with Access-Control-Allow-Credentials: true (preflight and simple request)',
  level: 'SHOULD',
  specRef: 'OWASP API Security Top 10 2023 API8 (Security Misconfiguration: "a CORS policy is missing or improperly set"); Fetch Standard §3.2 (CORS protocol and credentials)',
  clauses: [],
  owasp: ['API8:2023'],
  async run(ctx) {
    const origin = foreignOrigin();
    const path = ctx.path('listMessages');
    const preflight = await ctx.http.request({
      method: 'OPTIONS',
      path,
      headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
    });
    const simple = await listMessages(ctx, {}, { headers: { origin } });
    const findings = [
      ...(reflectsWithCredentials(preflight, origin) ? [`the preflight (OPTIONS ${path}) answered Access-Control-Allow-Origin: ${preflight.header('access-control-allow-origin')} with credentials`] : []),
      ...(reflectsWithCredentials(simple, origin) ? [`GET ${path} answered Access-Control-Allow-Origin: ${simple.header('access-control-allow-origin')} with credentials`] : []),
    ];
    if (findings.length) fail(`a foreign origin (${origin}) is allowed to read answers with the user's credentials — ${findings.join('; ')}`, { expected: 'no credentials for an origin the target does not know', actual: findings });
  },
});

export const jsonNoSniff = defineCheck({
  id: 'security.headers.nosniff',
  suite: 'security',
  title: 'JSON answers (a list, a 404, a 401) carry X-Content-Type-Options: nosniff',
  level: 'SHOULD',
  specRef: 'OWASP ASVS 4.0.3 V14.4.4 ("all responses contain a X-Content-Type-Options: nosniff header"); OWASP REST Security Cheat Sheet (Security Headers); OWASP API Security Top 10 2023 API8',
  clauses: [],
  owasp: ['API8:2023'],
  async run(ctx) {
    const answers: Array<[string, HttpResponse]> = [
      ['the message list', await listMessages(ctx)],
      ['a 404 for an unknown route', await ctx.http.request({ method: 'GET', path: `/v1/harness-unknown-${randomBytes(6).toString('hex')}`, ...(ctx.credentials.apiKey ? { bearer: ctx.credentials.apiKey } : {}) })],
      ['a 401 for a missing credential', await ctx.http.request({ method: 'GET', path: ctx.path('listMessages') })],
    ];
    const missing = answers
      .filter(([, res]) => /json/i.test(res.header('content-type') ?? ''))
      .filter(([, res]) => res.header('x-content-type-options')?.trim().toLowerCase() !== 'nosniff')
      .map(([what, res]) => `${what} (${res.status}, X-Content-Type-Options: ${res.header('x-content-type-options') ?? 'absent'})`);
    if (missing.length) fail(`JSON answers without X-Content-Type-Options: nosniff — ${missing.join('; ')}`, { expected: 'nosniff', actual: missing });
  },
});
