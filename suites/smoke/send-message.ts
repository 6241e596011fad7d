/** Smoke: the one operation every implementation has — send a text message with the API key. */
import { defineCheck } from '../../src/conformance/check.ts';
import { fail } from '../../src/conformance/outcomes.ts';
import { expect2xx, expectSuccessStatus, isIsoUtc, jsonObject } from '../../src/conformance/expect.ts';
import { sendMessage, textMessage } from '../../src/conformance/operations.ts';
import { requiresCredential } from '../../src/conformance/preconditions.ts';

export const sendTextMessage = requiresCredential('apiKey')(
  defineCheck({
    id: 'smoke.send-text-message',
    suite: 'smoke',
    title: 'A text message sent with the API key is accepted: id, status "sent", ISO 8601 UTC timestamp',
    level: 'MUST',
    specRef: 'SERVICE-SPEC §4 (POST /v1/whatsapp/messages), §2.1, §2.2, §5 rule 1',
    clauses: ['§4.send', '§2.1', '§2.2', '§3', '§5.1', '§1.messaging'],
    async run(ctx) {
      const res = await sendMessage(ctx, textMessage());
      expect2xx(res, 'send with the API key');
      const body = jsonObject(res, 'send response');
      ctx.schemas.expect('send-message-response', body, 'send response');
      if (typeof body.id !== 'string' || body.id.length === 0) fail('send response: "id" must be a non-empty string', { actual: body.id });
      if (body.status !== 'sent') fail(`send response: "status" must be "sent", got ${JSON.stringify(body.status)}`);
      if (!isIsoUtc(body.timestamp)) fail(`send response: "timestamp" must be an ISO 8601 UTC date-time, got ${JSON.stringify(body.timestamp)}`);
    },
  }),
);

export const sendCreatedStatus = requiresCredential('apiKey')(
  defineCheck({
    id: 'smoke.send-created-status',
    suite: 'smoke',
    title: 'Sending a message answers the configured create status (201 by default)',
    level: 'PROFILE',
    specRef: 'PROFILE General ("a create answers 201"); api.successStatus.sendMessage',
    clauses: ['§4.send'],
    async run(ctx) {
      const res = await sendMessage(ctx, textMessage());
      expectSuccessStatus(ctx, res, 'sendMessage', 'send with the API key');
    },
  }),
);
