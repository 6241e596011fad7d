/**
 * Built-in defaults: every `@default` of types.ts, in one place. The loader merges the YAML file over
 * `fileDefaults()`, then derives the values that depend on others (`applyDerivedDefaults`), so a file that
 * changes `quota` also changes the derived `refillPerSecond`. test/unit/config/schema-sync.test.ts keeps this
 * file, types.ts and schemas/harness-config.schema.json in step.
 */
import type { HarnessConfig, OAuthConfig, Operation, ProfileArea } from './types.ts';
import { PROFILE_AREAS } from './types.ts';

export const DEFAULT_ERROR_SCHEMA_ID = 'https://api-harness.example/schemas/api/problem-details.json';

/** PROFILE.md's paths ("All paths under /v1"). */
const DEFAULT_PATHS: Record<Operation, string> = {
  sendMessage: '/v1/whatsapp/messages',
  listMessages: '/v1/whatsapp/messages',
  login: '/v1/auth/login',
  account: '/v1/account',
  oauthAuthorize: '/v1/oauth/authorize',
  oauthToken: '/v1/oauth/token',
  createCampaign: '/v1/email/campaigns',
  getCampaign: '/v1/email/campaigns/{id}',
  sandboxInbound: '/v1/sandbox/inbound',
  createWebhook: '/v1/webhooks',
  listWebhooks: '/v1/webhooks',
  deleteWebhook: '/v1/webhooks/{id}',
};

/** PROFILE.md: create 201, read 200, delete 204; the consent POST of the authorize step answers 302. */
const DEFAULT_SUCCESS_STATUS: Record<Operation, number> = {
  sendMessage: 201,
  listMessages: 200,
  login: 200,
  account: 200,
  oauthAuthorize: 302,
  oauthToken: 200,
  createCampaign: 201,
  getCampaign: 200,
  sandboxInbound: 201,
  createWebhook: 201,
  listWebhooks: 200,
  deleteWebhook: 204,
};

/** Filled into `credentials.oauth` when a config gives that section (the section itself is optional). */
export function oauthDefaults(): Pick<OAuthConfig, 'scope' | 'consent' | 'pkce'> {
  return { scope: 'messages:send messages:read', consent: 'automated', pkce: true };
}

function allProfileAreas(): Record<ProfileArea, boolean> {
  return Object.fromEntries(PROFILE_AREAS.map((area) => [area, true])) as Record<ProfileArea, boolean>;
}

/** The defaults a file is merged over: no derived values (see applyDerivedDefaults). */
export function fileDefaults(): HarnessConfig {
  return {
    target: { timeoutMs: 10_000, accounts: 'multiple' },
    credentials: {},
    api: {
      paths: { ...DEFAULT_PATHS },
      query: { limit: 'limit', cursor: 'cursor', from: 'from', since: 'since', until: 'until' },
      pagination: { defaultLimit: 20, maxLimit: 100, order: 'newest-first' },
      successStatus: { ...DEFAULT_SUCCESS_STATUS },
      rejectedStatus: [400, 422],
      malformedJsonStatus: [400],
      errorSchema: DEFAULT_ERROR_SCHEMA_ID,
      schemas: {},
      rateLimitHeaders: 'auto',
      ownership: { refusal: 'not-found' },
    },
    conformance: {
      suites: [],
      skipChecks: [],
      suiteFiles: [],
      profile: allProfileAreas(),
      sandbox: true,
      seedCount: 45,
      checkTimeoutMs: 30_000,
      maxWaitSeconds: 5,
      embeddedJwtTtlSeconds: 3,
    },
    reference: {
      host: '127.0.0.1',
      port: 0,
      rateLimit: { algorithm: 'fixed-window', quota: 100, windowSeconds: 1, anonymousQuota: 200 },
      loadQuota: 1_000_000_000,
      injectLatencyMs: 0,
      allowedHosts: [],
      loginThrottle: { attempts: 5, windowSeconds: 60 },
      tokens: { jwtTtlSeconds: 900, accessTokenTtlSeconds: 3600, codeTtlSeconds: 60 },
      statusDelaysMs: { delivered: 200, read: 400 },
      webhooks: { attempts: 5, baseDelayMs: 500, timeoutMs: 5000, allow: [] },
    },
    webhooks: { receiverHost: '127.0.0.1', receiverPort: 0, signingKey: 'auto', waitSeconds: 10, maxDeliveries: 10_000 },
    report: { outDir: 'reports' },
    load: { scenarios: ['smoke'] },
  };
}

/** Values whose default is computed from other values. Mutates and returns `config`. */
export function applyDerivedDefaults(config: HarnessConfig): HarnessConfig {
  const rl = config.reference.rateLimit;
  // Only a token bucket refills; for the window algorithms the field stays absent (the semantic check
  // rejects it there), so consumers never see a value that does nothing.
  if (rl.algorithm === 'token-bucket' && rl.refillPerSecond === undefined) {
    rl.refillPerSecond = rl.quota / rl.windowSeconds;
  }
  if (config.credentials.oauth) config.credentials.oauth = { ...oauthDefaults(), ...config.credentials.oauth };
  return config;
}

/** The complete config a run uses when no file and no flag changes anything. A fresh, mutable copy. */
export function defaultConfig(): HarnessConfig {
  return applyDerivedDefaults(fileDefaults());
}
