/**
 * What the document says per operation, from SERVICE-SPEC.md as PROFILE.md fills it in: method, request and
 * response schemas, credentials, the error statuses each one can answer. Paths, parameter names, success
 * statuses and page limits are not here: they come from the config (`api.*`), so the document describes the
 * target the config describes.
 */
import type { Operation, ProfileArea } from '../config/types.ts';

/** Which credentials an operation takes (PROFILE.md "Authentication"). */
export type Credential = 'apiKey' | 'jwt' | 'oauth2' | 'none';

export interface OperationSpec {
  operation: Operation;
  method: 'get' | 'post' | 'delete';
  summary: string;
  tags: string[];
  /** Base name of the request body's schema (schemas/api), if any. */
  request?: string;
  /** Also takes `application/x-www-form-urlencoded` (RFC 6749 endpoints). */
  form?: boolean;
  /** Base name of the success body's schema; absent: no JSON body (204, 302, HTML). */
  response?: string;
  credentials: Credential[];
  /** The scope an API key or access token needs (PROFILE.md), if any. */
  scope?: string;
  /** Error statuses besides 401/403/429, which follow from `credentials`. */
  errors: ('rejected' | 'notFound' | 'unsupportedMediaType' | 'unprocessable' | 'badCredentials')[];
  /** The PROFILE.md area a target may switch off (then the operation is left out). */
  area?: ProfileArea;
}

export const OPERATION_SPECS: readonly OperationSpec[] = [
  { operation: 'sendMessage', method: 'post', summary: 'Send a message (SERVICE-SPEC §4)', tags: ['Messages'], request: 'send-message-request', response: 'send-message-response', credentials: ['apiKey', 'oauth2'], scope: 'messages:send', errors: ['rejected', 'unsupportedMediaType', 'unprocessable'] },
  { operation: 'listMessages', method: 'get', summary: 'List received messages (SERVICE-SPEC §4)', tags: ['Messages'], response: 'message-list', credentials: ['apiKey', 'oauth2'], scope: 'messages:read', errors: ['rejected'] },
  { operation: 'login', method: 'post', summary: 'Log in for a JWT (SERVICE-SPEC §5 rule 2)', tags: ['Authentication'], request: 'login-request', response: 'login-response', credentials: ['none'], errors: ['rejected', 'unsupportedMediaType', 'badCredentials'] },
  { operation: 'account', method: 'get', summary: 'Read the account (SERVICE-SPEC §4)', tags: ['Account'], response: 'account', credentials: ['jwt', 'oauth2'], errors: [] },
  { operation: 'oauthToken', method: 'post', summary: 'Exchange an authorization code for an access token (SERVICE-SPEC §5 rule 3)', tags: ['Authentication'], request: 'oauth-token-request', form: true, response: 'oauth-token-response', credentials: ['none'], errors: [], area: 'oauth' },
  { operation: 'createCampaign', method: 'post', summary: 'Create an email campaign (SERVICE-SPEC §4)', tags: ['Email'], request: 'campaign-request', response: 'campaign-response', credentials: ['apiKey', 'oauth2'], scope: 'campaigns:write', errors: ['rejected', 'unsupportedMediaType'], area: 'campaigns' },
  { operation: 'getCampaign', method: 'get', summary: 'Read an email campaign', tags: ['Email'], response: 'campaign-response', credentials: ['apiKey', 'oauth2'], scope: 'campaigns:write', errors: ['notFound'], area: 'campaigns' },
  { operation: 'sandboxInbound', method: 'post', summary: 'Simulate a received message (the sandbox, SERVICE-SPEC §1)', tags: ['Sandbox'], request: 'sandbox-inbound-request', response: 'listed-message', credentials: ['apiKey', 'oauth2'], scope: 'sandbox', errors: ['rejected', 'unsupportedMediaType'], area: 'sandbox' },
  { operation: 'createWebhook', method: 'post', summary: 'Register a webhook (SERVICE-SPEC §6)', tags: ['Webhooks'], request: 'webhook-request', response: 'webhook', credentials: ['apiKey', 'oauth2'], scope: 'webhooks:manage', errors: ['rejected', 'unsupportedMediaType'], area: 'webhooks' },
  { operation: 'listWebhooks', method: 'get', summary: "List the caller's account's webhooks, without their secrets (shown once, at registration)", tags: ['Webhooks'], response: 'webhook-list', credentials: ['apiKey', 'oauth2'], scope: 'webhooks:manage', errors: [], area: 'webhooks' },
  { operation: 'deleteWebhook', method: 'delete', summary: 'Delete a webhook', tags: ['Webhooks'], credentials: ['apiKey', 'oauth2'], scope: 'webhooks:manage', errors: ['notFound'], area: 'webhooks' },
];

export const SCOPES: Record<string, string> = {
  'messages:send': 'send messages',
  'messages:read': 'list received messages',
  'campaigns:write': 'create and read email campaigns',
  'webhooks:manage': 'register, list and delete webhooks',
  sandbox: 'simulate received messages',
};
