/**
 * Schemas: the message list — its envelope (§2.4) and its items (§2.3). Items are checked on a list that holds
 * at least one message seeded through the sandbox for this purpose, so the list is never vacuously empty.
 */
import { defineCheck } from '../../src/conformance/check.ts';
import { fail, skip } from '../../src/conformance/outcomes.ts';
import type { CheckContext } from '../../src/conformance/context.ts';
import { expect2xx } from '../../src/conformance/expect.ts';
import { listMessages } from '../../src/conformance/operations.ts';
import { guarded, requiresCredential, requiresSandbox } from '../../src/conformance/preconditions.ts';
import type { HttpResponse } from '../../src/http/client.ts';
import { postInbound, uniqueSender } from '../lib/message-seed.ts';
import { expectFields, fieldProblems, jsonBody, LIST_ENVELOPE_FIELDS, LISTED_MESSAGE_FIELDS } from './lib/spec-fields.ts';

interface SeededList {
  inbound: HttpResponse;
  list: HttpResponse;
}

/** One message seeded from a sender of its own, then the first page of the list filtered by that sender. */
function seededList(ctx: CheckContext): Promise<SeededList> {
  return ctx.memo('schemas.seeded-list', async () => {
    const from = uniqueSender();
    const inbound = await postInbound(ctx, { from, text: 'schemas: a listed message' });
    if (inbound.status < 200 || inbound.status > 299) skip(`needs a message seeded through the sandbox, but it answered ${inbound.status} (pagination.seed.sandbox-accepts reports it)`);
    return { inbound, list: await listMessages(ctx, { from }) };
  });
}

function listItems(res: HttpResponse): unknown[] {
  expect2xx(res, 'list after seeding a message');
  const data = (jsonBody(res, 'list response') as { data?: unknown }).data;
  if (!Array.isArray(data)) fail('list response: "data" must be an array');
  if (data.length === 0) fail('the list is empty right after a message was seeded through the sandbox');
  return data;
}

/** The first page of the list, read with the API key: the envelope both envelope checks judge. */
async function firstPage(ctx: CheckContext): Promise<unknown> {
  const res = await listMessages(ctx);
  expect2xx(res, 'list with the API key');
  return jsonBody(res, 'list response');
}

export const listedMessageFields = guarded(
  defineCheck({
    id: 'schemas.listed-message.spec-fields',
    suite: 'schemas',
    title: 'Listed messages have id, from and text (strings) and timestamp (ISO 8601 UTC)',
    level: 'MUST',
    specRef: 'SERVICE-SPEC §2.3, §4 (GET /v1/whatsapp/messages: items per 2.3)',
    clauses: ['§2.3', '§4.list'],
    async run(ctx) {
      const { list } = await seededList(ctx);
      const problems = listItems(list).flatMap((item, i) => fieldProblems(item, LISTED_MESSAGE_FIELDS, `data[${i}].`));
      if (problems.length > 0) fail(`listed messages do not have the fields of SERVICE-SPEC §2.3: ${problems.slice(0, 6).join('; ')}`, { problems }, [list.exchange]);
    },
  }),
  requiresCredential('apiKey'),
  requiresSandbox,
);

export const listedMessageSchema = guarded(
  defineCheck({
    id: 'schemas.listed-message.schema',
    suite: 'schemas',
    title: 'The sandbox answer and every listed message match schema listed-message',
    level: 'PROFILE',
    specRef: 'PROFILE Messages (sandbox "answers 201 with the listed message"); schemas/api/listed-message.schema.json (api.schemas)',
    clauses: ['§2.3', '§1.sandbox'],
    async run(ctx) {
      const { inbound, list } = await seededList(ctx);
      const problems: string[] = [];
      const sandboxOutcome = ctx.schemas.validate('listed-message', inbound.json());
      if (!sandboxOutcome.ok) for (const e of sandboxOutcome.errors) problems.push(`sandbox answer: ${e}`);
      listItems(list).forEach((item, i) => {
        const outcome = ctx.schemas.validate('listed-message', item);
        if (!outcome.ok) for (const e of outcome.errors) problems.push(`data[${i}]: ${e}`);
      });
      if (problems.length > 0) fail(`listed messages do not match schema "listed-message": ${problems.slice(0, 5).join('; ')}`, { errors: problems }, [inbound.exchange, list.exchange]);
    },
  }),
  requiresCredential('apiKey'),
  requiresSandbox,
);

export const listEnvelopeFields = requiresCredential('apiKey')(
  defineCheck({
    id: 'schemas.message-list.spec-fields',
    suite: 'schemas',
    title: 'The list answers {data: array, pagination: {next: cursor string, limit: integer}}',
    level: 'MUST',
    specRef: 'SERVICE-SPEC §2.4, §8.3 (next may be null or absent where there is no next page: not shown)',
    clauses: ['§2.4', '§8.3', '§4.list'],
    async run(ctx) {
      expectFields(await firstPage(ctx), LIST_ENVELOPE_FIELDS, 'the list response', '§2.4');
    },
  }),
);

export const listEnvelopeSchema = requiresCredential('apiKey')(
  defineCheck({
    id: 'schemas.message-list.schema',
    suite: 'schemas',
    title: 'The list response matches schema message-list',
    level: 'PROFILE',
    specRef: 'PROFILE Messages (envelope; "The last page has pagination.next: null"); schemas/api/message-list.schema.json (api.schemas)',
    clauses: ['§2.4'],
    async run(ctx) {
      ctx.schemas.expect('message-list', await firstPage(ctx), 'list response');
    },
  }),
);
