/** Smoke: the message list answers with the §2.4 envelope. */
import { defineCheck } from '../../src/conformance/check.ts';
import { fail } from '../../src/conformance/outcomes.ts';
import { expect2xx, jsonObject } from '../../src/conformance/expect.ts';
import { listMessages } from '../../src/conformance/operations.ts';
import { requiresCredential } from '../../src/conformance/preconditions.ts';

export const listEnvelope = requiresCredential('apiKey')(
  defineCheck({
    id: 'smoke.list-messages-envelope',
    suite: 'smoke',
    title: 'The message list answers a {data, pagination {next, limit}} envelope',
    level: 'MUST',
    specRef: 'SERVICE-SPEC §4 (GET /v1/whatsapp/messages), §2.3, §2.4',
    clauses: ['§4.list', '§2.3', '§2.4', '§8.3'],
    async run(ctx) {
      const res = await listMessages(ctx);
      expect2xx(res, 'list with the API key');
      const body = jsonObject(res, 'list response');
      ctx.schemas.expect('message-list', body, 'list response');
      const pagination = body.pagination as { limit?: unknown } | undefined;
      if (!Array.isArray(body.data)) fail('list response: "data" must be an array');
      if (typeof pagination?.limit !== 'number' || !Number.isInteger(pagination.limit)) {
        fail(`list response: "pagination.limit" must be an integer, got ${JSON.stringify(pagination?.limit)}`);
      }
    },
  }),
);
