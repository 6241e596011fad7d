/** The OpenAPI 3.0 document the openapi-convention target serves: its own choices, stated (openapi-convention.ts). */
import { OAC } from './openapi-convention.ts';

const problem = { $ref: '#/components/responses/Problem' };
const ok = (description: string) => ({ description, content: { 'application/json': { schema: { type: 'object' } } } });

export function openApiConventionDocument(): Record<string, unknown> {
  return {
    openapi: '3.0.3',
    info: { title: 'Messaging API (openapi-convention)', version: '1.0.0' },
    servers: [{ url: '/v1' }],
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      schemas: {
        Problem: {
          type: 'object',
          required: ['type', 'title', 'status', 'code'],
          properties: {
            type: { type: 'string' },
            title: { type: 'string' },
            status: { type: 'integer' },
            detail: { type: 'string', nullable: true },
            code: { type: 'string' },
            errors: { type: 'array', items: { type: 'object', required: ['path', 'message'], properties: { path: { type: 'string' }, message: { type: 'string' } } } },
          },
        },
      },
      responses: {
        Problem: { description: 'Rejected', content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } } },
      },
      parameters: {
        PerPage: { name: OAC.query.limit, in: 'query', schema: { type: 'integer', minimum: 1, maximum: OAC.maxPageSize, default: OAC.defaultPageSize } },
      },
    },
    security: [{ bearer: [] }],
    paths: {
      '/whatsapp/messages': {
        post: { operationId: 'sendMessage', responses: { [String(OAC.sendStatus)]: ok('Accepted for sending'), '400': problem, '422': problem } },
        get: {
          operationId: 'listMessages',
          parameters: [
            { $ref: '#/components/parameters/PerPage' },
            { name: OAC.query.cursor, in: 'query', schema: { type: 'string' } },
            { name: 'from', in: 'query', schema: { type: 'string' } },
            { name: 'since', in: 'query', schema: { type: 'string', format: 'date-time' } },
            { name: 'until', in: 'query', schema: { type: 'string', format: 'date-time' } },
          ],
          responses: { '200': ok('A page'), '422': problem },
        },
      },
      '/auth/login': { post: { responses: { '200': ok('A JWT'), '401': problem } } },
      '/account': { get: { responses: { '200': ok('The account') } } },
      '/oauth/authorize': { get: { responses: { '200': { description: 'Consent page' } } }, post: { responses: { '302': { description: 'Back to the client' } } } },
      '/oauth/token': { post: { responses: { '200': ok('Tokens') } } },
      '/email/campaigns': { post: { responses: { '201': ok('Created'), '422': problem } } },
      '/email/campaigns/{campaignId}': { get: { parameters: [{ name: 'campaignId', in: 'path', required: true, schema: { type: 'string' } }], responses: { '200': ok('The campaign'), '404': problem } } },
      '/sandbox/inbound': { post: { responses: { '201': ok('Received') } } },
      '/webhooks': { post: { responses: { '201': ok('Registered') } }, get: { responses: { '200': ok('The webhooks') } } },
      '/webhooks/{webhookId}': { delete: { parameters: [{ name: 'webhookId', in: 'path', required: true, schema: { type: 'string' } }], responses: { '204': { description: 'Deleted' } } } },
    },
  };
}
