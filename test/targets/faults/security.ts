/**
 * Faulty targets for the security suite: each breaks one OWASP API rule and names exactly the check that must
 * flag it. A fixture that "accepts" an internal webhook URL records it and answers by itself: the URL never
 * reaches the reference target behind the proxy, so nothing is ever delivered and nothing connects outside
 * loopback.
 */
import { randomBytes } from 'node:crypto';
import { rewriteJson400 } from '../../helpers/json-error-fault.ts';
import type { FaultCase } from '../fault-case.ts';
import { jsonBody, withJson, type FaultTools, type ProxyRequest, type ProxyResponse } from '../faulty-proxy.ts';

const WEBHOOKS = '/v1/webhooks';
const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'x-content-type-options': 'nosniff' };

/** Answers a registration of a URL matching `written` (the URL as the client wrote it) by itself, and its delete. */
function acceptsWritten(written: RegExp) {
  return (req: ProxyRequest, tools: FaultTools): ProxyRequest | ProxyResponse => {
    const fake = (tools.state.get('fake-hooks') as Set<string> | undefined) ?? new Set<string>();
    tools.state.set('fake-hooks', fake);
    if (req.method === 'DELETE' && req.path.startsWith(`${WEBHOOKS}/`)) {
      const id = decodeURIComponent(req.path.slice(WEBHOOKS.length + 1));
      if (fake.delete(id)) return { status: 204, headers: { 'x-content-type-options': 'nosniff' }, body: '' };
      return req;
    }
    if (req.method !== 'POST' || req.path !== WEBHOOKS) return req;
    const body = JSON.parse(req.body || '{}') as { url?: unknown; events?: unknown };
    if (typeof body.url !== 'string' || !written.test(body.url)) return req;
    const hook = { id: `wh_fake_${randomBytes(6).toString('hex')}`, url: body.url, events: body.events, secret: `whsec_${randomBytes(24).toString('base64')}`, created_at: new Date().toISOString() };
    fake.add(hook.id);
    tools.state.set('recorded', [...((tools.state.get('recorded') as string[] | undefined) ?? []), body.url]);
    return { status: 201, headers: JSON_HEADERS, body: JSON.stringify(hook) };
  };
}

const STACK = 'SyntaxError: Unexpected end of JSON input\n    at JSON.parse (<anonymous>)\n    at parseBody (/srv/api/src/http/body.js:41:17)';

export const SECURITY_FAULTS: FaultCase[] = [
  {
    name: 'a webhook URL at the cloud metadata address 169.254.169.254 is accepted (recorded, never delivered to)',
    fault: { onRequest: acceptsWritten(/^https?:\/\/169\.254\.169\.254[:/]/i) },
    suites: ['security'],
    failing: ['security.ssrf.metadata'],
    verdict: 'selection-passed',
  },
  {
    name: 'a webhook URL whose host is an IPv4 address written as one decimal number is accepted',
    fault: { onRequest: acceptsWritten(/^https?:\/\/\d+[:/]/i) },
    suites: ['security'],
    failing: ['security.ssrf.encoded'],
    verdict: 'selection-passed',
  },
  {
    name: 'a campaign create takes over the id and status the client sent, ignoring other unknown fields',
    fault: {
      onRequest(req, tools) {
        if (req.method !== 'POST' || req.path !== '/v1/email/campaigns') return req;
        const { id, status, created_at: _c, recipients_count: _r, account_id: _a, owner: _o, harness_unknown_field: _u, ...allowed } = JSON.parse(req.body || '{}') as Record<string, unknown>;
        tools.state.set('assigned', { ...(id !== undefined ? { id } : {}), ...(status !== undefined ? { status } : {}) });
        return { ...req, body: JSON.stringify(allowed) };
      },
      onResponse(req, res, tools) {
        if (req.method !== 'POST' || req.path !== '/v1/email/campaigns' || res.status !== 201) return res;
        return withJson(res, { ...jsonBody<Record<string, unknown>>(res), ...(tools.state.get('assigned') as object) });
      },
    },
    suites: ['security'],
    failing: ['security.mass-assignment.not-taken-over', 'security.mass-assignment.rejected-naming-fields'],
    verdict: 'selection-passed',
  },
  {
    name: 'the webhook list shows every webhook\'s signing secret',
    fault: {
      onResponse(req, res, tools) {
        const secrets = (tools.state.get('secrets') as Map<string, string> | undefined) ?? new Map<string, string>();
        tools.state.set('secrets', secrets);
        if (req.method === 'POST' && req.path === WEBHOOKS && res.status === 201) {
          const hook = jsonBody<{ id: string; secret: string }>(res);
          secrets.set(hook.id, hook.secret);
          return res;
        }
        if (req.method !== 'GET' || !req.path.startsWith(WEBHOOKS) || res.status !== 200) return res;
        const list = jsonBody<{ data: Array<Record<string, unknown>> }>(res);
        return withJson(res, { ...list, data: list.data.map((hook) => ({ ...hook, secret: hook.secret ?? secrets.get(String(hook.id)) })) });
      },
    },
    suites: ['security'],
    failing: ['security.exposure.no-secret-in-reads'],
    verdict: 'selection-passed',
  },
  {
    name: 'a malformed-JSON error body carries a stack trace with a source path',
    fault: {
      onResponse: rewriteJson400('invalid_json', (body) => ({ ...body, stack: STACK })),
    },
    suites: ['security'],
    failing: ['security.exposure.no-internals-in-errors'],
    verdict: 'selection-passed',
  },
  {
    name: 'CORS reflects any Origin with Access-Control-Allow-Credentials: true',
    fault: {
      onRequest(req) {
        if (req.method !== 'OPTIONS' || !req.headers.origin) return req;
        return { status: 204, headers: { 'access-control-allow-origin': req.headers.origin, 'access-control-allow-credentials': 'true', 'access-control-allow-methods': 'GET, POST, DELETE', 'access-control-allow-headers': 'authorization, content-type' }, body: '' };
      },
      onResponse(req, res) {
        if (!req.headers.origin) return res;
        return { ...res, headers: { ...res.headers, 'access-control-allow-origin': req.headers.origin, 'access-control-allow-credentials': 'true', vary: 'Origin' } };
      },
    },
    suites: ['security'],
    failing: ['security.cors.no-reflected-origin-with-credentials'],
    verdict: 'selection-passed',
  },
  {
    name: 'JSON answers come without X-Content-Type-Options: nosniff',
    fault: {
      onResponse(_req, res) {
        const headers = Object.fromEntries(Object.entries(res.headers).filter(([name]) => name.toLowerCase() !== 'x-content-type-options'));
        return { ...res, headers };
      },
    },
    suites: ['security'],
    failing: ['security.headers.nosniff'],
    verdict: 'selection-passed',
  },
];
