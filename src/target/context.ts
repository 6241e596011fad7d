/**
 * Everything one app instance owns: options, credentials, stores, limiter, event bus and timers. Built once
 * per `buildApp()` and handed to the plugins, so two apps in one process share no state.
 */
import { ApiKeyRegistry } from './auth/api-keys.ts';
import { AccessTokenStore } from './auth/access-tokens.ts';
import { JwtService } from './auth/jwt.ts';
import { LoginThrottle } from './auth/login-throttle.ts';
import { OAuthClientRegistry } from './auth/oauth-clients.ts';
import { AuthorizationCodeStore } from './auth/oauth-codes.ts';
import type { QuotaClass } from './auth/principal.ts';
import { createCredentials } from './credentials.ts';
import { TargetEventBus } from './events.ts';
import { CursorCodec } from './http/cursor.ts';
import { sharedBodyValidator, type BodyValidator } from './http/validation.ts';
import { isoTime, resourceId } from './ids.ts';
import type { Account } from './model.ts';
import type { ResolvedOptions } from './options.ts';
import { createRateLimiter } from './ratelimit/create.ts';
import type { RateLimiter, RatePolicy } from './ratelimit/types.ts';
import { CampaignStore } from './store/campaigns.ts';
import { IdempotencyStore } from './store/idempotency.ts';
import { InboundMessageStore } from './store/inbound-messages.ts';
import { OutboundMessageStore } from './store/outbound-messages.ts';
import { UserStore } from './store/users.ts';
import { PerAccount } from './store/per-account.ts';
import { WebhookStore } from './store/webhooks.ts';
import { TimerRegistry } from './timers.ts';
import type { ReferenceCredentials } from './types.ts';
import { WebhookUrlPolicy } from './webhooks/url-policy.ts';
import { TargetStartError } from '../errors/harness-errors.ts';

export interface TargetContext {
  options: ResolvedOptions;
  now: () => number;
  credentials: ReferenceCredentials;
  /** The first account: every key the banner has always printed, the login user. */
  account: Account;
  /** The second account (credentials.otherAccount): nothing of the first is visible to it, nor the reverse. */
  otherAccount: Account;
  users: UserStore;
  apiKeys: ApiKeyRegistry;
  jwt: JwtService;
  oauthClients: OAuthClientRegistry;
  codes: AuthorizationCodeStore;
  accessTokens: AccessTokenStore;
  loginThrottle: LoginThrottle;
  limiter: RateLimiter;
  policies: Record<QuotaClass | 'anonymous', RatePolicy>;
  validator: BodyValidator;
  cursors: CursorCodec;
  /** Received messages, one store per account (list, cursors and eviction stay within an account). */
  inbound: PerAccount<InboundMessageStore>;
  outbound: OutboundMessageStore;
  idempotency: IdempotencyStore;
  campaigns: CampaignStore;
  webhooks: WebhookStore;
  /** Which webhook URLs may be registered and delivered to (webhooks/url-policy.ts). */
  webhookPolicy: WebhookUrlPolicy;
  events: TargetEventBus;
  timers: TimerRegistry;
}

/** Told when a bounded store evicts its oldest entry (the app logs it: eviction is never silent). */
export type OnEvict = (store: 'inbound' | 'outbound', evictedSoFar: number) => void;

export function createContext(options: ResolvedOptions, onListenerError?: (err: unknown) => void, onEvict: OnEvict = () => {}): TargetContext {
  const { now, tokens, rateLimit } = options;
  const credentials = createCredentials(options.credentials);
  const account: Account = {
    id: resourceId('acct', now()),
    email: credentials.login.email,
    name: 'Reference Tester',
    plan: 'developer',
    created_at: isoTime(now()),
  };
  const otherAccount: Account = {
    id: resourceId('acct', now()),
    email: credentials.otherAccount.login.email,
    name: 'Reference Other Tester',
    plan: 'developer',
    created_at: isoTime(now()),
  };
  const users = new UserStore();
  users.add(account, credentials.login.password);
  users.add(otherAccount, credentials.otherAccount.login.password);

  return {
    options,
    now,
    credentials,
    account,
    otherAccount,
    users,
    apiKeys: new ApiKeyRegistry(credentials, { main: account.id, other: otherAccount.id }),
    jwt: new JwtService(tokens.jwtTtlSeconds, now, options.jwtSigningKey !== undefined ? new TextEncoder().encode(options.jwtSigningKey) : undefined),
    oauthClients: new OAuthClientRegistry(credentials),
    codes: new AuthorizationCodeStore(tokens.codeTtlSeconds, tokens.accessTokenTtlSeconds, now),
    accessTokens: new AccessTokenStore(tokens.accessTokenTtlSeconds, now),
    loginThrottle: new LoginThrottle(options.loginThrottle.attempts, options.loginThrottle.windowSeconds, now),
    limiter: createRateLimiter(rateLimit.algorithm, now),
    policies: {
      default: policy(rateLimit.quota),
      load: policy(options.loadQuota),
      anonymous: policy(rateLimit.anonymousQuota),
    },
    validator: sharedBodyValidator(),
    cursors: new CursorCodec(),
    inbound: new PerAccount(() => new InboundMessageStore(options.stores.inbound, (n) => onEvict('inbound', n))),
    outbound: new OutboundMessageStore(options.stores.outbound, (n) => onEvict('outbound', n)),
    idempotency: new IdempotencyStore(now),
    campaigns: new CampaignStore(),
    webhooks: new WebhookStore(),
    webhookPolicy: webhookPolicy(options.webhooks.allow),
    events: new TargetEventBus(onListenerError),
    timers: new TimerRegistry(),
  };

  // Every policy shares the window; the token bucket refills each in proportion to its quota, so the configured
  // refillPerSecond (for the default quota) keeps its meaning of "window length to refill completely".
  function policy(quota: number): RatePolicy {
    const refillPerSecond = (rateLimit.refillPerSecond / rateLimit.quota) * quota;
    return { name: 'default', quota, windowSeconds: rateLimit.windowSeconds, refillPerSecond };
  }
}

function webhookPolicy(allow: readonly string[]): WebhookUrlPolicy {
  try {
    return new WebhookUrlPolicy(allow);
  } catch (err) {
    throw new TargetStartError(`reference target option webhooks.allow: ${(err as Error).message}`);
  }
}
