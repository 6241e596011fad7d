/**
 * Generated invalid bodies are rejected — with a configured rejection status (api.rejectedStatus), or 413 for a
 * body of 1 MiB or more — and never with a 5xx. The schemas are PROFILE.md's, so these are PROFILE checks; a
 * 5xx also trips the SHOULD standing check on server errors.
 */
import { defineCheck, fail, type Check } from '../../src/conformance/check.ts';
import { guarded, requiresProfile, requiresSandbox } from '../../src/conformance/preconditions.ts';
import { BODY_OPERATIONS, describeBody, invalidBodies, type BodyOperation } from './generate-bodies.ts';
import { detailOf, requiresSendingKey, sendBodies } from './send-bodies.ts';

const LARGE_BODY_BYTES = 1024 * 1024;
const MAX_LISTED = 20;

function invalidRejected(operation: BodyOperation, what: string, clauses: string[]): Check {
  const spec = BODY_OPERATIONS[operation];
  return defineCheck({
    id: `inputs.${spec.slug}.invalid-rejected`,
    suite: 'inputs',
    title: `Generated invalid ${what} bodies (wrong types, missing fields, bad lengths, odd Unicode, deep nesting, extra properties) are rejected, never with a 5xx`,
    level: 'PROFILE',
    specRef: `PROFILE (schemas/api/${spec.schema}.schema.json; "A rejected request body is 400"); api.rejectedStatus; RFC 9110 §15.6 for 5xx`,
    clauses,
    async run(ctx) {
      const rejected = ctx.config.api.rejectedStatus;
      const sent = await sendBodies(ctx, operation, invalidBodies(spec));
      const offending = sent.filter(({ res, bytes }) => !rejected.includes(res.status) && !(res.status === 413 && bytes >= LARGE_BODY_BYTES));
      if (offending.length === 0) return;
      const serverErrors = offending.filter(({ res }) => res.status >= 500).length;
      fail(`${offending.length} of ${sent.length} invalid ${what} bodies were not rejected with ${rejected.join(' or ')} (or 413 when ≥ 1 MiB)`
        + `${serverErrors ? `; ${serverErrors} got a server error` : ''}: `
        + offending.slice(0, 5).map(({ generated, res }) => `${generated.kind} → ${res.status}`).join('; '), {
        expected: { status: rejected, oversized: 413 },
        actual: offending.slice(0, MAX_LISTED).map(({ generated, res, bytes }) => ({
          kind: generated.kind,
          status: res.status,
          bytes,
          body: describeBody(generated.body),
          ...(detailOf(res) ? { detail: detailOf(res) } : {}),
        })),
        notListed: Math.max(0, offending.length - MAX_LISTED),
      });
    },
  });
}

export const sendMessageInvalid = requiresSendingKey(invalidRejected('sendMessage', 'send-message', ['§2.1', '§4.send']));
export const campaignInvalid = guarded(invalidRejected('createCampaign', 'campaign', ['§2.5', '§4.campaigns']), requiresSendingKey, requiresProfile('campaigns'));
export const loginInvalid = requiresProfile('jwt')(invalidRejected('login', 'login', ['§2.6', '§4.login']));
export const sandboxInvalid = guarded(invalidRejected('sandboxInbound', 'sandbox inbound', ['§1.sandbox']), requiresSendingKey, requiresSandbox);
export const webhookInvalid = guarded(invalidRejected('createWebhook', 'webhook registration', ['§6']), requiresSendingKey, requiresProfile('webhooks'));
