/**
 * Generated valid bodies are accepted (2xx). Valid per the published request schemas, which are PROFILE.md's —
 * so PROFILE checks — except SERVICE-SPEC §2.1's long-form text message, which every implementation must take
 * (MUST). A target's own replacement schema (api.schemas) replaces the built-in one. Login bodies carry made-up accounts
 * with real email addresses (§2.6 "Account email address"): "accepted" there means not rejected as invalid (2xx or 401).
 */
import { defineCheck, type Check } from '../../src/conformance/check.ts';
import { fail, passVacuously } from '../../src/conformance/outcomes.ts';
import type { CheckContext } from '../../src/conformance/context.ts';
import { guarded, requiresProfile, requiresSandbox } from '../../src/conformance/preconditions.ts';
import { BODY_OPERATIONS, describeBody, longFormTextBodies, validBodies, type BodyOperation, type GeneratedBody } from './lib/generate-bodies.ts';
import { generationFor } from './invalid-rejected.ts';
import { detailOf, requiresSendingKey, sendBodies, type Sent } from './lib/send-bodies.ts';

function accepted(operation: BodyOperation, { status }: Sent['res']): boolean {
  return (status >= 200 && status <= 299) || (operation === 'login' && status === 401);
}

async function expectAccepted(ctx: CheckContext, operation: BodyOperation, bodies: GeneratedBody[], what: string): Promise<void> {
  const sent = await sendBodies(ctx, operation, bodies);
  const offending = sent.filter(({ res }) => !accepted(operation, res));
  if (offending.length === 0) return cannedAnswers(sent, what);
  fail(`${offending.length} of ${sent.length} valid ${what} bodies were not accepted: `
    + offending.slice(0, 5).map(({ generated, res }) => `${describeBody(generated.body, 80)} → ${res.status}${detailOf(res) ? ` (${detailOf(res)})` : ''}`).join('; '), {
    expected: operation === 'login' ? '2xx, or 401 for an unknown account' : '2xx',
    actual: offending.map(({ generated, res }) => ({ kind: generated.kind, status: res.status, body: describeBody(generated.body), ...(detailOf(res) ? { detail: detailOf(res) } : {}) })),
  });
}

/**
 * Different bodies, each accepted with the very same answer, id included: the answer depends on nothing that was
 * sent (a static mock's one canned example). The acceptance is real, but nothing shows the target read a body,
 * so the pass is vacuous. A real implementation gives each created thing its own id (§2.2 "Identifier of the
 * message") and each login its own token; answers without either, and identical refusals (a login of made-up
 * accounts: 401), are not judged.
 */
function cannedAnswers(sent: readonly Sent[], what: string): void {
  const successes = sent.filter(({ res }) => res.status >= 200 && res.status <= 299);
  if (successes.length < 2 || new Set(sent.map(({ generated }) => JSON.stringify(generated.body))).size < 2) return;
  const first = successes[0]!.res;
  const answer = first.json<Record<string, unknown>>();
  const id = answer?.id ?? answer?.token;
  if (id === undefined || id === null || !successes.every(({ res }) => res.status === first.status && res.text === first.text)) return;
  passVacuously(`all ${successes.length} different ${what} bodies were answered ${first.status} with the same body, the same ${answer?.id !== undefined ? 'id' : 'token'} (${JSON.stringify(id).slice(0, 60)}) included: `
    + 'the answer depends on nothing that was sent (a static mock\'s canned example), so accepting them shows nothing was read');
}

/** Message forms the target's profile has: the short form and media/template types can be switched off. */
function messageFormAllowed(ctx: CheckContext, body: unknown): boolean {
  const record = body as { type?: unknown; text?: unknown };
  if (typeof record.text === 'string' && !ctx.config.conformance.profile.shortForm) return false;
  if (record.type !== undefined && record.type !== 'text' && !ctx.config.conformance.profile.mediaTypes) return false;
  return true;
}

function validAccepted(operation: BodyOperation, what: string, clauses: string[]): Check {
  const spec = BODY_OPERATIONS[operation];
  return defineCheck({
    id: `inputs.${spec.slug}.valid-accepted`,
    suite: 'inputs',
    title: `Generated ${what} bodies that are valid per the request schema are accepted`,
    level: 'PROFILE',
    specRef: `PROFILE (schemas/api/${spec.schema}.schema.json), or the target's own schema (api.schemas ${spec.schema})`,
    clauses,
    async run(ctx) {
      const { schema } = generationFor(ctx, operation);
      const accept = operation === 'sendMessage' && !schema.replaced ? (body: unknown) => messageFormAllowed(ctx, body) : undefined;
      await expectAccepted(ctx, operation, validBodies(spec, undefined, undefined, accept, schema), `${what} (${schema.label})`);
    },
  });
}

export const sendMessageValid = requiresSendingKey(validAccepted('sendMessage', 'send-message', ['§2.1', '§4.send']));
export const campaignValid = guarded(validAccepted('createCampaign', 'campaign', ['§2.5', '§4.campaigns']), requiresSendingKey, requiresProfile('campaigns'));
export const loginValid = requiresProfile('jwt')(validAccepted('login', 'login', ['§2.6', '§4.login']));
export const sandboxValid = guarded(validAccepted('sandboxInbound', 'sandbox inbound', ['§1.sandbox']), requiresSendingKey, requiresSandbox);
export const webhookValid = guarded(validAccepted('createWebhook', 'webhook registration', ['§6']), requiresSendingKey, requiresProfile('webhooks'));

export const longFormTextAccepted = requiresSendingKey(
  defineCheck({
    id: 'inputs.send-message.long-form-text-accepted',
    suite: 'inputs',
    title: 'Long-form text messages {to, type: "text", text: {body}} with generated texts (any script, emoji, RTL) are accepted',
    level: 'MUST',
    specRef: 'SERVICE-SPEC §2.1, §4 (POST /v1/whatsapp/messages)',
    clauses: ['§2.1', '§4.send', '§1.messaging'],
    async run(ctx) {
      await expectAccepted(ctx, 'sendMessage', longFormTextBodies(), 'long-form text message');
    },
  }),
);
