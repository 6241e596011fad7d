/**
 * Validation of the send-message body. The schema is a oneOf of seven forms; validating against the oneOf
 * reports every branch's failures at once, which tells a client nothing. So the branch is chosen from the
 * body's shape first (its `type`, and whether `text` is a string), and only that branch's errors are reported,
 * e.g. `/text/body: must NOT have fewer than 1 characters`.
 */
import type { BodyValidator } from '../http/validation.ts';
import { validationFailed } from '../http/problem.ts';

export const MESSAGE_TYPES = ['text', 'image', 'document', 'audio', 'video', 'template'] as const;
export type MessageType = (typeof MESSAGE_TYPES)[number];

export interface TextMessage {
  to: string;
  type?: 'text';
  text: string | { body: string };
}
export interface MediaMessage {
  to: string;
  type: 'image' | 'document' | 'audio' | 'video';
  [key: string]: unknown;
}
export interface TemplateMessage {
  to: string;
  type: 'template';
  template: { name: string; language: { code: string } };
}
export type SendMessageBody = TextMessage | MediaMessage | TemplateMessage;

const SCHEMA = 'send-message-request';

/** Returns the body typed once it matches exactly one form; throws 400 validation_failed otherwise. */
export function parseSendMessage(validator: BodyValidator, body: unknown): SendMessageBody {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw validationFailed([{ path: '', message: 'must be a JSON object' }]);
  }
  const record = body as Record<string, unknown>;
  const type = record.type ?? 'text';
  if (!MESSAGE_TYPES.includes(type as MessageType)) {
    throw validationFailed([
      { path: '/type', message: `must be one of ${MESSAGE_TYPES.map((t) => JSON.stringify(t)).join(', ')}` },
    ]);
  }
  const branch = type === 'text' ? (typeof record.text === 'string' ? 'shortText' : 'text') : (type as string);
  validator.assert(`${SCHEMA}#/$defs/${branch}`, body);
  return body as SendMessageBody;
}
