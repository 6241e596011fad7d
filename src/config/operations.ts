/**
 * What the harness knows of the API: its operations (keys of `api.paths` and `api.successStatus`), their methods,
 * and the PROFILE.md areas a config can switch off. schemas/harness-config.schema.json lists the same keys
 * (test/unit/config/schema-sync.test.ts).
 */

/** The operations the harness knows. Keys of `api.paths` and `api.successStatus`. */
export const OPERATIONS = [
  'sendMessage',
  'listMessages',
  'login',
  'account',
  'oauthAuthorize',
  'oauthToken',
  'createCampaign',
  'getCampaign',
  'sandboxInbound',
  'createWebhook',
  'listWebhooks',
  'deleteWebhook',
] as const;
export type Operation = (typeof OPERATIONS)[number];

/** The method(s) of each operation; the authorization endpoint has two (the consent page and the consent). */
export const OPERATION_METHODS: Readonly<Record<Operation, readonly string[]>> = {
  sendMessage: ['POST'],
  listMessages: ['GET'],
  login: ['POST'],
  account: ['GET'],
  oauthAuthorize: ['GET', 'POST'],
  oauthToken: ['POST'],
  createCampaign: ['POST'],
  getCampaign: ['GET'],
  sandboxInbound: ['POST'],
  createWebhook: ['POST'],
  listWebhooks: ['GET'],
  deleteWebhook: ['DELETE'],
};

/** PROFILE.md areas a config can switch off for a target that does not implement them. */
export const PROFILE_AREAS = [
  'shortForm',
  'mediaTypes',
  'idempotency',
  'oauth',
  'pkce',
  'jwt',
  'campaigns',
  'sandbox',
  'webhooks',
  'problemJson',
  'methodNotAllowed',
  'unsupportedMediaType',
  'requestId',
  'loginThrottling',
  'rateLimitHeaders',
  'rateLimitIsolation',
] as const;
export type ProfileArea = (typeof PROFILE_AREAS)[number];
