/**
 * The document's `webhooks:` (OpenAPI 3.1): what the service POSTs to a registered URL for each event type
 * (PROFILE.md "Webhooks"), signed per the Standard Webhooks convention.
 */
import { schemaRef } from './components.ts';
import { WEBHOOK_EXAMPLES } from './examples.ts';

type Obj = Record<string, unknown>;

const EVENTS: [string, string, string][] = [
  ['message.received', 'A message was received; `data` is the listed message.', 'listed-message'],
  ['message.status', 'A sent message changed state; `data` is `{id, status, timestamp, error?}`.', 'message-status-event-data'],
];

const SIGNATURE_HEADERS: [string, string][] = [
  ['webhook-id', 'The delivery id; the same on every retry of one delivery.'],
  ['webhook-timestamp', 'Unix seconds when the delivery was signed.'],
  ['webhook-signature', 'Space-separated `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">` keyed by the webhook secret.'],
];

export function webhookDefinitions(): Record<string, Obj> {
  return Object.fromEntries(
    EVENTS.map(([type, description, data]) => [
      type,
      {
        post: {
          operationId: `webhook_${type.replace('.', '_')}`,
          summary: `The ${type} event`,
          description: `${description} A non-2xx answer, or none within 5 s, is retried with exponential back-off.`,
          tags: ['Webhooks'],
          security: [],
          parameters: SIGNATURE_HEADERS.map(([name, text]) => ({ name, in: 'header', required: true, description: text, schema: { type: 'string' } })),
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: { allOf: [schemaRef('webhook-event'), { type: 'object', properties: { type: { const: type }, data: schemaRef(data) } }] },
                example: WEBHOOK_EXAMPLES[type],
              },
            },
          },
          responses: { '2XX': { description: 'Received; any 2xx status ends the retries.' } },
        },
      },
    ]),
  );
}
