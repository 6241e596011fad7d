/**
 * The body of a validation rejection: what a client learns from a 400 about what was wrong. PROFILE General
 * (problem details with a snake_case `code`) and PROFILE Messages ("a missing field … gets 400 with
 * errors[].path"), or the target's own error format (api.errorSchema). SERVICE-SPEC shows no error body shape
 * (§7 "not shown"), so this is PROFILE; whether the body was rejected at all is the inputs suite's concern.
 */
import { defineCheck } from '../../src/conformance/check.ts';
import { fail, skip } from '../../src/conformance/outcomes.ts';
import { jsonObject } from '../../src/conformance/expect.ts';
import { sendMessage } from '../../src/conformance/operations.ts';
import { requiresCredential } from '../../src/conformance/preconditions.ts';
import { schemaId } from '../../src/schemas/registry.ts';

/** PROFILE General's error format (RFC 9457 problem details): api.errorSchema's default. */
const DEFAULT_ERROR_SCHEMA = schemaId('problem-details');

export const validationProblemBody = requiresCredential('apiKey')(
  defineCheck({
    id: 'errors.validation.problem-body',
    suite: 'errors',
    title: 'A rejected send (no `to`) answers an error body naming what was wrong: the configured error schema (problem details with code and errors[].path by default)',
    level: 'PROFILE',
    specRef: 'PROFILE General (problem details with `code`), PROFILE Messages ("a missing field … gets 400 with errors[].path"); or the target\'s api.errorSchema',
    clauses: ['§2.1', '§4.send'],
    async run(ctx) {
      const res = await sendMessage(ctx, { type: 'text', text: { body: 'errors: no recipient' } });
      if (!ctx.config.api.rejectedStatus.includes(res.status)) {
        skip(`a send without \`to\` answered ${res.status}, not a rejection (${ctx.config.api.rejectedStatus.join(' or ')}), so there is no rejection body to read (inputs.send-message.invalid-rejected.fields reports it)`);
      }
      const body = jsonObject(res, `${res.status} body`);
      ctx.schemas.expect('error', body, `${res.status} body`);
      // The default format is PROFILE's, which also promises the field: errors[].path points at /to.
      if (ctx.config.api.errorSchema !== DEFAULT_ERROR_SCHEMA) return;
      const errors = Array.isArray(body.errors) ? (body.errors as Array<Record<string, unknown>>) : [];
      if (!errors.some((e) => typeof e?.path === 'string' && /(^|\/)to$/.test(e.path))) {
        fail(`the rejection body does not name the missing field: expected an errors[] entry whose path is "/to", got ${JSON.stringify(body.errors ?? null)}`, {
          expected: { errors: [{ path: '/to' }] },
          actual: body.errors ?? null,
        });
      }
    },
  }),
);
