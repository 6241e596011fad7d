/**
 * Schemas: the send operation — both text forms, the media and template types, and the send response.
 * Acceptance checks ask for any 2xx (the exact create status is smoke.send-created-status's rule).
 */
import { defineCheck } from '../../src/conformance/check.ts';
import { fail } from '../../src/conformance/outcomes.ts';
import type { CheckContext } from '../../src/conformance/context.ts';
import { expect2xx } from '../../src/conformance/expect.ts';
import { sendMessage, textMessage } from '../../src/conformance/operations.ts';
import { guarded, requiresCredential, requiresProfile } from '../../src/conformance/preconditions.ts';
import { expectFields, jsonBody, SEND_RESPONSE_FIELDS } from './lib/spec-fields.ts';

const TO = '15551234567';

/** The body a long-form send answers with `text`: what both send-response checks judge. */
async function sendResponse(ctx: CheckContext, text: string): Promise<unknown> {
  const res = await sendMessage(ctx, textMessage(TO, text));
  expect2xx(res, 'send in the long form');
  return jsonBody(res, 'send response');
}

export const longFormAccepted = requiresCredential('apiKey')(
  defineCheck({
    id: 'schemas.send.long-form-accepted',
    suite: 'schemas',
    title: 'The long form {to, type: "text", text: {body}} is accepted',
    level: 'MUST',
    specRef: 'SERVICE-SPEC §2.1, §4 (POST /v1/whatsapp/messages)',
    clauses: ['§2.1', '§4.send', '§4.json'],
    async run(ctx) {
      expect2xx(await sendMessage(ctx, textMessage(TO, 'schemas: long form')), 'send in the long form');
    },
  }),
);

export const sendResponseFields = requiresCredential('apiKey')(
  defineCheck({
    id: 'schemas.send-response.spec-fields',
    suite: 'schemas',
    title: 'The send response has id (string), status "sent" and timestamp (ISO 8601 UTC)',
    level: 'MUST',
    specRef: 'SERVICE-SPEC §2.2, §3',
    clauses: ['§2.2', '§3'],
    async run(ctx) {
      expectFields(await sendResponse(ctx, 'schemas: send response'), SEND_RESPONSE_FIELDS, 'the send response', '§2.2');
    },
  }),
);

export const sendResponseSchema = requiresCredential('apiKey')(
  defineCheck({
    id: 'schemas.send-response.schema',
    suite: 'schemas',
    title: 'The send response matches schema send-message-response',
    level: 'PROFILE',
    specRef: 'PROFILE Messages ("Answer 201 {id, status: \\"sent\\", timestamp}"); schemas/api/send-message-response.schema.json (api.schemas)',
    clauses: ['§2.2'],
    async run(ctx) {
      ctx.schemas.expect('send-message-response', await sendResponse(ctx, 'schemas: send response schema'), 'send response');
    },
  }),
);

export const shortFormAccepted = guarded(
  defineCheck({
    id: 'schemas.send.short-form-accepted',
    suite: 'schemas',
    title: 'The short form {to, text: "…"} (type omitted) is accepted',
    level: 'PROFILE',
    specRef: 'PROFILE Messages ("the short form {to, text: \\"…\\"} is accepted too"); SERVICE-SPEC §2.1 leaves which form is authoritative open',
    clauses: ['§2.1'],
    async run(ctx) {
      expect2xx(await sendMessage(ctx, { to: TO, text: 'schemas: short form' }), 'send in the short form');
    },
  }),
  requiresCredential('apiKey'),
  requiresProfile('shortForm'),
);

/** One body per media type and a template, in the WhatsApp Cloud API shapes PROFILE.md names. */
export function mediaBodies(to: string): Array<[string, Record<string, unknown>]> {
  return [
    ['image', { to, type: 'image', image: { link: 'https://example.com/conformance/picture.png', caption: 'conformance image' } }],
    ['document', { to, type: 'document', document: { link: 'https://example.com/conformance/terms.pdf', caption: 'conformance document' } }],
    ['audio', { to, type: 'audio', audio: { link: 'https://example.com/conformance/voice.mp3' } }],
    ['video', { to, type: 'video', video: { link: 'https://example.com/conformance/clip.mp4' } }],
    ['template', { to, type: 'template', template: { name: 'hello_world', language: { code: 'en_US' } } }],
  ];
}

export const mediaTypesAccepted = guarded(
  defineCheck({
    id: 'schemas.send.media-types-accepted',
    suite: 'schemas',
    title: 'image, document, audio and video messages ({link, caption?}) and template messages ({name, language: {code}}) are accepted',
    level: 'PROFILE',
    specRef: 'PROFILE Messages ("Other types follow the WhatsApp Cloud API shapes")',
    clauses: ['§2.1', '§1.messaging'],
    async run(ctx) {
      const refused: Array<{ type: string; status: number }> = [];
      for (const [type, body] of mediaBodies(TO)) {
        const res = await sendMessage(ctx, body);
        if (res.status < 200 || res.status > 299) refused.push({ type, status: res.status });
      }
      if (refused.length > 0) {
        fail(`expected a 2xx for every message type, got: ${refused.map((r) => `${r.type} → ${r.status}`).join('; ')}`, { expected: '2xx', actual: refused });
      }
    },
  }),
  requiresCredential('apiKey'),
  requiresProfile('mediaTypes'),
);
