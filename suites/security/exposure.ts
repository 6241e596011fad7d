/**
 * Excessive data exposure (OWASP API3:2023) and internals in error answers (API8:2023). A secret is shown once,
 * where it is created; no list or read answer carries a credential-looking field. No error answer, however it is
 * provoked, carries a stack trace, a source file path or an exception name. Both SHOULD: OWASP's prevention
 * lists ("never rely on the client to filter data"; "error messages … include stack traces" is a
 * misconfiguration); the reference's exact list shape is PROFILE's.
 */
import { randomBytes } from 'node:crypto';
import { defineCheck } from '../../src/conformance/check.ts';
import { fail } from '../../src/conformance/outcomes.ts';
import type { CheckContext } from '../../src/conformance/context.ts';
import { listMessages } from '../../src/conformance/operations.ts';
import type { HttpResponse } from '../../src/http/client.ts';
import { campaignBody, campaignId, createCampaign, getCampaign } from '../lib/campaign-ops.ts';
import { probeWebhookUrl } from './lib/creates.ts';
import { PROBE_EVENTS, undo } from './lib/registration.ts';
import { internalsIn } from './lib/internals.ts';

/** Property names that hold a credential. */
const CREDENTIAL_NAME = /^(secret|.*[_-]secret|password|passwd|api[_-]?key|private[_-]?key|signing[_-]?key|access[_-]?token|refresh[_-]?token|client[_-]?secret)$/i;

/** JSON Pointers of credential-looking properties with a non-empty value, anywhere in `value`. */
export function credentialFields(value: unknown, at = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => credentialFields(item, `${at}/${i}`));
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value as Record<string, unknown>).flatMap(([key, inner]) => [
    ...(CREDENTIAL_NAME.test(key) && inner !== null && inner !== '' ? [`${at}/${key}`] : []),
    ...credentialFields(inner, `${at}/${key}`),
  ]);
}

async function reads(ctx: CheckContext): Promise<Array<{ what: string; res: HttpResponse; secret?: string }>> {
  const out: Array<{ what: string; res: HttpResponse; secret?: string }> = [];
  const { profile } = ctx.config.conformance;
  if (profile.webhooks && !ctx.config.webhooks.preRegistered) {
    // Registered, listed and deleted at once: nothing is sent meanwhile, so nothing is delivered to it.
    const created = await ctx.http.request({ method: 'POST', path: ctx.path('createWebhook'), json: { url: probeWebhookUrl(ctx), events: [...PROBE_EVENTS] }, bearer: ctx.credentials.apiKey });
    const body = created.json<Record<string, unknown>>();
    const secret = typeof body?.secret === 'string' ? body.secret : undefined;
    if (secret) ctx.secrets.add(secret);
    try {
      out.push({ what: `GET ${ctx.path('listWebhooks')}`, res: await ctx.http.request({ method: 'GET', path: ctx.path('listWebhooks'), bearer: ctx.credentials.apiKey }), ...(secret ? { secret } : {}) });
    } finally {
      if (created.status >= 200 && created.status < 300) await undo(ctx, typeof body?.id === 'string' ? body.id : undefined);
    }
  }
  if (profile.campaigns) {
    const id = campaignId(await createCampaign(ctx, campaignBody(1)));
    if (id) out.push({ what: `GET ${ctx.path('getCampaign', { id })}`, res: await getCampaign(ctx, id) });
  }
  out.push({ what: `GET ${ctx.path('listMessages')}`, res: await listMessages(ctx) });
  return out;
}

export const noSecretInReads = defineCheck({
  id: 'security.exposure.no-secret-in-reads',
  suite: 'security',
  title: 'No list or read answer carries a secret or another credential-looking field (a webhook secret is shown once, at creation)',
  level: 'SHOULD',
  specRef: 'OWASP API Security Top 10 2023 API3 (Broken Object Property Level Authorization: excessive data exposure); PROFILE Accounts, ownership and exposure ("a webhook\'s secret is shown once")',
  clauses: ['§6'],
  owasp: ['API3:2023'],
  async run(ctx) {
    const findings: string[] = [];
    for (const { what, res, secret } of await reads(ctx)) {
      if (res.status < 200 || res.status > 299) continue;
      const fields = credentialFields(res.json());
      if (fields.length) findings.push(`${what} carries ${fields.join(', ')}`);
      else if (secret && res.text.includes(secret)) findings.push(`${what} carries the webhook's signing secret`);
    }
    if (findings.length) fail(`credentials exposed in read answers — ${findings.join('; ')}`, { expected: 'no secret after creation', actual: findings });
  },
});

/** Requests that make a target answer with an error, each with what it provokes. */
function provocations(ctx: CheckContext): Array<{ what: string; send: () => Promise<HttpResponse> }> {
  const key = ctx.credentials.apiKey;
  const send = ctx.path('sendMessage');
  const post = (what: string, body: string) => ({ what, send: () => ctx.http.request({ method: 'POST', path: send, body, headers: { 'content-type': 'application/json' }, ...(key ? { bearer: key } : {}) }) });
  return [
    post('malformed JSON', '{"to": "15551234567", "type": "text", "text": {"body": '),
    post('wrong types', JSON.stringify({ to: 15551234567, type: ['text'], text: { body: { nested: true } } })),
    post('a number too large for any float', '{"to": 1e999999, "type": "text", "text": {"body": "x"}}'),
    post('a body nested 2000 levels deep', `${'['.repeat(2000)}${']'.repeat(2000)}`),
    { what: 'an integer query value past 2^64', send: () => listMessages(ctx, { limit: '184467440737095516160000' }) },
    { what: 'an unknown route', send: () => ctx.http.request({ method: 'GET', path: `/v1/harness-unknown-${randomBytes(6).toString('hex')}`, ...(key ? { bearer: key } : {}) }) },
    { what: 'a method the path does not serve', send: () => ctx.http.request({ method: 'PATCH', path: ctx.path('listMessages'), body: '{}', headers: { 'content-type': 'application/json' }, ...(key ? { bearer: key } : {}) }) },
    { what: 'an id with quotes and a NUL', send: () => ctx.http.request({ method: 'GET', path: ctx.path('getCampaign', { id: `cmp_'"\u0000${randomBytes(2).toString('hex')}` }), ...(key ? { bearer: key } : {}) }) },
  ];
}

export const noInternalsInErrors = defineCheck({
  id: 'security.exposure.no-internals-in-errors',
  suite: 'security',
  title: 'No error answer carries a stack trace, a source file path or an exception name (malformed JSON, wrong types, huge numbers, unknown routes, wrong methods)',
  level: 'SHOULD',
  specRef: 'OWASP API Security Top 10 2023 API8 (Security Misconfiguration: "error messages include stack traces, or expose other sensitive information"); RFC 9457 §5 (problem details are not a debugging tool)',
  clauses: [],
  owasp: ['API8:2023'],
  async run(ctx) {
    const findings: string[] = [];
    for (const { what, send } of provocations(ctx)) {
      const res = await send();
      if (res.status < 400) continue;
      const seen = internalsIn(res.text);
      if (seen.length) findings.push(`${what} → ${res.status} with ${seen.join(', ')}`);
    }
    if (findings.length) fail(`error answers expose internals — ${findings.join('; ')}`, { expected: 'no stack trace, file path or exception name', actual: findings });
  },
});
