/**
 * Generated invalid bodies are rejected — with a configured rejection status (api.rejectedStatus), or 413 for a
 * body of 1 MiB or more — and never with a 5xx. Each body breaks one rule that someone stated: SERVICE-SPEC §2
 * (a field's type, `to` as digits with country code, ISO 8601 dates), PROFILE.md (required fields, lengths,
 * message types) as the config describes the target's profile, or the target's own schema (api.schemas). The
 * rejection itself is PROFILE ("A rejected request body is 400"): SERVICE-SPEC shows no validation status (§7),
 * so even a body that breaks a §2.1 rule is not a MUST failure when it is accepted — these are PROFILE checks,
 * and each offending case says which rule it broke and where that rule comes from.
 *
 * Hostile bodies (1000 levels of nesting, a 1 MiB string, an unpaired surrogate whose meaning RFC 8259 §8.2 leaves
 * to the parser) break no stated rule; the one thing every server owes them is an answer that is not a 5xx
 * (RFC 9110 §15.6), a SHOULD check of its own.
 */
import { defineCheck, type Check } from '../../src/conformance/check.ts';
import { fail, skip } from '../../src/conformance/outcomes.ts';
import type { CheckContext } from '../../src/conformance/context.ts';
import { guarded, requiresProfile, requiresSandbox } from '../../src/conformance/preconditions.ts';
import { BODY_OPERATIONS, describeBody, effectiveSchema, hostileBodies, invalidBodies, type BodyOperation, type GenerationOptions, type InvalidCase } from './lib/generate-bodies.ts';
import { RULE_FAMILIES, type RuleFamily } from './lib/rule-sources.ts';
import { detailOf, requiresSendingKey, sendBodies } from './lib/send-bodies.ts';

const LARGE_BODY_BYTES = 1024 * 1024;
const MAX_LISTED = 20;

/** The message forms (oneOf branches) the target's profile has, as the config describes it. */
function profileBranches(ctx: CheckContext): (name: string) => boolean {
  const { shortForm, mediaTypes } = ctx.config.conformance.profile;
  return (name) => (name === 'shortText' ? shortForm : name === 'text' ? true : mediaTypes);
}

/** How bodies for `operation` are generated against this target: its effective schema, its profile's forms. */
export function generationFor(ctx: CheckContext, operation: BodyOperation): GenerationOptions & { schema: ReturnType<typeof effectiveSchema> } {
  const spec = BODY_OPERATIONS[operation];
  let schema: ReturnType<typeof effectiveSchema>;
  try {
    schema = effectiveSchema(spec, ctx.config.api.schemas);
  } catch (err) {
    skip(`api.schemas.${spec.schema} cannot be used: ${(err as Error).message}`);
  }
  return { schema, ...(operation === 'sendMessage' && !schema.replaced ? { branch: profileBranches(ctx) } : {}) };
}

function invalidRejected(operation: BodyOperation, what: string, clauses: string[], family: RuleFamily): Check {
  const spec = BODY_OPERATIONS[operation];
  return defineCheck({
    id: `inputs.${spec.slug}.invalid-rejected.${family}`,
    suite: 'inputs',
    title: `Generated ${what} bodies that break a stated rule of one family (${RULE_FAMILIES[family]}: SERVICE-SPEC §2, PROFILE.md, or the target's own schema) are rejected`,
    level: 'PROFILE',
    specRef: `PROFILE General ("A rejected request body is 400"), api.rejectedStatus; each case names its rule's source (SERVICE-SPEC §2, PROFILE.md, or api.schemas ${spec.schema})`,
    clauses,
    async run(ctx) {
      const rejected = ctx.config.api.rejectedStatus;
      const cases = invalidBodies(spec, generationFor(ctx, operation)).filter((c) => c.family === family);
      if (cases.length === 0) skip(`no rule of this family (${RULE_FAMILIES[family]}) in the effective ${spec.schema} schema has a source to test`);
      const sent = await sendBodies(ctx, operation, cases);
      const offending = sent.filter(({ res, bytes }) => !rejected.includes(res.status) && !(res.status === 413 && bytes >= LARGE_BODY_BYTES));
      if (offending.length === 0) return;
      const serverErrors = offending.filter(({ res }) => res.status >= 500).length;
      const sources = [...new Set(offending.map(({ generated }) => (generated as InvalidCase).source))];
      const rules = [...new Set(offending.map(({ generated }) => (generated as InvalidCase).rule))];
      fail(`${offending.length} of ${sent.length} invalid ${what} bodies (${RULE_FAMILIES[family]}) were not rejected with ${rejected.join(' or ')} (or 413 when ≥ 1 MiB)`
        + `${serverErrors ? `; ${serverErrors} got a server error` : ''}; ${rules.length} rule(s) broken: `
        + offending.slice(0, 5).map(({ generated, res }) => `${generated.kind} → ${res.status} (rule of ${(generated as InvalidCase).source})`).join('; '), {
        expected: { status: rejected, oversized: 413 },
        sources,
        rules,
        actual: offending.slice(0, MAX_LISTED).map(({ generated, res, bytes }) => {
          const stated = generated as InvalidCase;
          return {
            kind: generated.kind,
            rule: stated.rule,
            source: stated.source,
            status: res.status,
            bytes,
            body: describeBody(generated.body),
            ...(detailOf(res) ? { detail: detailOf(res) } : {}),
          };
        }),
        notListed: Math.max(0, offending.length - MAX_LISTED),
      });
    },
  });
}

/** One check per rule family, in a fixed order (ids: inputs.<operation>.invalid-rejected.<family>). */
function perFamily(operation: BodyOperation, what: string, clauses: string[], guard: (check: Check) => Check): Check[] {
  return (Object.keys(RULE_FAMILIES) as RuleFamily[]).map((family) => guard(invalidRejected(operation, what, clauses, family)));
}

export const sendMessageInvalid = perFamily('sendMessage', 'send-message', ['§2.1', '§4.send'], requiresSendingKey);
export const campaignInvalid = perFamily('createCampaign', 'campaign', ['§2.5', '§4.campaigns'], (c) => guarded(c, requiresSendingKey, requiresProfile('campaigns')));
export const loginInvalid = perFamily('login', 'login', ['§2.6', '§4.login'], requiresProfile('jwt'));
export const sandboxInvalid = perFamily('sandboxInbound', 'sandbox inbound', ['§1.sandbox'], (c) => guarded(c, requiresSendingKey, requiresSandbox));
export const webhookInvalid = perFamily('createWebhook', 'webhook registration', ['§6'], (c) => guarded(c, requiresSendingKey, requiresProfile('webhooks')));

/** The operations a hostile body goes to on this target: the send always, the others where its profile has them. */
function hostileOperations(ctx: CheckContext): BodyOperation[] {
  const { profile, sandbox } = ctx.config.conformance;
  return (['sendMessage', 'createCampaign', 'login', 'sandboxInbound', 'createWebhook'] as const).filter((op) =>
    op === 'createCampaign' ? profile.campaigns : op === 'login' ? profile.jwt : op === 'sandboxInbound' ? sandbox && profile.sandbox : op === 'createWebhook' ? profile.webhooks : true,
  );
}

export const hostileNoServerError = requiresSendingKey(
  defineCheck({
    id: 'inputs.hostile-bodies-no-5xx',
    suite: 'inputs',
    title: 'Hostile bodies (1000 levels of nesting, a string of 1 MiB, an unpaired surrogate) are answered, never with a 5xx',
    level: 'SHOULD',
    specRef: 'RFC 9110 §15.6 (a 5xx says the server failed; no request body may make it fail)',
    clauses: ['§4.json'],
    async run(ctx) {
      const offending: Array<{ operation: string; kind: string; status: number }> = [];
      let sentCount = 0;
      for (const operation of hostileOperations(ctx)) {
        const bodies = hostileBodies(BODY_OPERATIONS[operation], generationFor(ctx, operation));
        const sent = await sendBodies(ctx, operation, bodies);
        sentCount += sent.length;
        for (const { generated, res } of sent) if (res.status >= 500) offending.push({ operation, kind: generated.kind, status: res.status });
      }
      if (sentCount === 0) skip('no hostile body could be derived from the effective request schemas');
      if (offending.length > 0) {
        fail(`${offending.length} of ${sentCount} hostile bodies got a server error: ${offending.slice(0, 5).map((o) => `${o.operation} ${o.kind} → ${o.status}`).join('; ')}`, { expected: 'any status below 500', actual: offending });
      }
    },
  }),
);
