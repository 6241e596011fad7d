import { defaultConfig } from '../config/index.ts';
import type { FrozenConfig } from '../config/types.ts';
import { describedValues } from './describe-values.ts';
import type { CheckResult } from './result.ts';

/**
 * Which config key(s) describe what each PROFILE check judges: where a target that chose differently on that
 * PROFILE point says so (`harness init` drafts them). A check whose rule no key re-describes names the PROFILE area
 * switch that turns it off for a target without that area, or says why nothing describes it. Every registered
 * PROFILE check has an entry (test/unit/describe-keys.test.ts).
 */

export type Describable = { keys: readonly string[] } | { notDescribable: string };

const GROUPS: ReadonlyArray<readonly [Describable, readonly string[]]> = [
  [{ keys: ['api.successStatus.sendMessage'] }, ['smoke.send-created-status']],
  [{ keys: ['api.schemas.account', 'api.successStatus.account'] }, ['smoke.account-shape', 'schemas.account.schema']],
  [{ notDescribable: 'PROFILE.md fixes Bearer as the only place for a credential; a key accepted in the query string is a finding, not a choice' }, ['auth.api-key.query-string-ignored']],
  [{ keys: ['conformance.profile.jwt', 'api.schemas.login-response'] }, ['auth.jwt.profile-claims', 'auth.jwt.expires-in-seconds', 'schemas.login.schema']],
  [{ keys: ['conformance.profile.jwt', 'api.paths.login'] }, ['auth.jwt.bad-login-401', 'auth.jwt.api-key-on-account-refused', 'auth.jwt.jwt-on-messaging-refused']],
  [{ keys: ['conformance.profile.jwt', 'api.rejectedStatus'] }, ['auth.jwt.login-missing-fields']],
  [{ keys: ['conformance.profile.oauth', 'api.paths.oauthAuthorize', 'api.successStatus.oauthAuthorize'] }, ['auth.oauth.consent-redirects-with-code', 'auth.oauth.authorize-bad-client-rejected']],
  [{ keys: ['conformance.profile.oauth', 'api.paths.oauthToken', 'api.schemas.oauth-token-response'] }, ['auth.oauth.token-response-fields', 'schemas.oauth-token.schema']],
  [{ keys: ['conformance.profile.oauth', 'credentials.oauth.scope'] }, ['auth.oauth.token-within-scope', 'auth.oauth.token-outside-scope']],
  [{ keys: ['api.schemas.send-message-response', 'api.successStatus.sendMessage'] }, ['schemas.send-response.schema']],
  [{ keys: ['conformance.profile.shortForm'] }, ['schemas.send.short-form-accepted']],
  [{ keys: ['conformance.profile.mediaTypes'] }, ['schemas.send.media-types-accepted']],
  [{ keys: ['api.schemas.listed-message'] }, ['schemas.listed-message.schema']],
  [{ keys: ['api.schemas.message-list'] }, ['schemas.message-list.schema']],
  [{ keys: ['api.schemas.campaign-response', 'api.successStatus.createCampaign'] }, ['schemas.campaign.schema']],
  [{ keys: ['api.errorSchema', 'conformance.profile.problemJson'] }, ['schemas.error.not-found-problem', 'errors.unauthorized.problem-body', 'errors.forbidden.problem-body', 'errors.rate-limited.problem-body']],
  [{ keys: ['conformance.sandbox', 'conformance.profile.sandbox', 'api.paths.sandboxInbound', 'api.successStatus.sandboxInbound'] }, ['pagination.seed.sandbox-accepts']],
  [{ keys: ['api.query.cursor', 'api.query.limit'] }, ['pagination.walk.next-leads-to-next-page', 'pagination.walk.last-page-next-null', 'pagination.walk.union-equals-data', 'pagination.walk.no-duplicates', 'pagination.walk.stable', 'pagination.stability.insert-during-walk']],
  [{ keys: ['api.pagination.defaultLimit', 'api.pagination.maxLimit', 'api.query.limit'] }, ['pagination.walk.limit-echoes-size', 'pagination.walk.full-pages']],
  [{ keys: ['api.pagination.order'] }, ['pagination.walk.documented-order']],
  [{ keys: ['api.query.from'] }, ['pagination.filter.from']],
  [{ keys: ['api.query.since'] }, ['pagination.filter.since-inclusive']],
  [{ keys: ['api.query.until'] }, ['pagination.filter.until-exclusive']],
  [{ keys: ['api.rejectedStatus', 'api.query.cursor'] }, ['pagination.cursor.garbled-rejected']],
  [{ keys: ['api.rejectedStatus', 'api.pagination.maxLimit', 'api.query.limit'] }, ['pagination.limit.out-of-range-rejected']],
  [{ keys: ['api.successStatus.createCampaign', 'api.schemas.campaign-response', 'conformance.profile.campaigns'] }, ['email.create.status-and-body', 'email.create.echoes-request', 'email.create.duplicate-recipients-removed', 'email.schedule.future-is-scheduled', 'email.schedule.none-is-draft']],
  [{ keys: ['api.rejectedStatus', 'conformance.profile.campaigns'] }, ['email.validation.missing-field-rejected', 'email.validation.bad-address-rejected', 'email.validation.empty-recipients-rejected', 'email.validation.past-schedule-rejected']],
  [{ keys: ['api.successStatus.getCampaign', 'api.paths.getCampaign', 'conformance.profile.campaigns'] }, ['email.read.same-object', 'email.read.unknown-id-404']],
  [{ keys: ['conformance.profile.idempotency'] }, ['idempotency.replay.same-response', 'idempotency.replay.other-body-422', 'idempotency.replay.different-keys-different-messages']],
  [{ keys: ['api.ownership.refusal'] }, ['ownership.refusal.status']],
  [{ keys: ['api.successStatus.sendMessage', 'api.schemas.send-message-request', 'conformance.profile.shortForm', 'conformance.profile.mediaTypes'] }, ['inputs.send-message.valid-accepted']],
  [{ keys: ['api.rejectedStatus', 'api.schemas.send-message-request'] }, ['inputs.send-message.invalid-rejected.fields', 'inputs.send-message.invalid-rejected.values']],
  [{ keys: ['api.successStatus.createCampaign', 'api.schemas.campaign-request'] }, ['inputs.campaign.valid-accepted']],
  [{ keys: ['api.rejectedStatus', 'api.schemas.campaign-request'] }, ['inputs.campaign.invalid-rejected.fields', 'inputs.campaign.invalid-rejected.values']],
  [{ keys: ['api.successStatus.login', 'api.schemas.login-request'] }, ['inputs.login.valid-accepted']],
  [{ keys: ['api.rejectedStatus', 'api.schemas.login-request'] }, ['inputs.login.invalid-rejected.fields', 'inputs.login.invalid-rejected.values']],
  [{ keys: ['api.successStatus.sandboxInbound', 'api.schemas.sandbox-inbound-request'] }, ['inputs.sandbox-inbound.valid-accepted']],
  [{ keys: ['api.rejectedStatus', 'api.schemas.sandbox-inbound-request'] }, ['inputs.sandbox-inbound.invalid-rejected.fields', 'inputs.sandbox-inbound.invalid-rejected.values']],
  [{ keys: ['api.successStatus.createWebhook', 'api.schemas.webhook-request'] }, ['inputs.webhook.valid-accepted']],
  [{ keys: ['api.rejectedStatus', 'api.schemas.webhook-request'] }, ['inputs.webhook.invalid-rejected.fields', 'inputs.webhook.invalid-rejected.values']],
  [{ notDescribable: 'an unknown path under the API prefix answers 404 by HTTP convention (PROFILE.md "General"); no key re-describes it' }, ['errors.not-found.unknown-path']],
  [{ keys: ['conformance.profile.methodNotAllowed'] }, ['errors.method-not-allowed.status']],
  [{ keys: ['conformance.profile.unsupportedMediaType'] }, ['errors.unsupported-media-type.status']],
  [{ keys: ['api.malformedJsonStatus'] }, ['errors.malformed-json.status']],
  [{ keys: ['api.errorSchema', 'api.rejectedStatus'] }, ['errors.validation.problem-body']],
  [{ keys: ['conformance.profile.problemJson'] }, ['errors.problem-json.content-type']],
  [{ keys: ['conformance.profile.requestId'] }, ['errors.request-id.present', 'errors.request-id.echoed']],
  [{ keys: ['api.rejectedStatus'] }, ['security.mass-assignment.rejected-naming-fields']],
  [{ keys: ['api.successStatus.createWebhook', 'api.paths.createWebhook', 'conformance.profile.webhooks'] }, ['webhooks.management.create']],
  [{ keys: ['api.successStatus.listWebhooks', 'api.paths.listWebhooks', 'conformance.profile.webhooks'] }, ['webhooks.management.list-contains']],
  [{ keys: ['api.successStatus.deleteWebhook', 'api.paths.deleteWebhook', 'conformance.profile.webhooks'] }, ['webhooks.management.delete', 'webhooks.management.delete-unknown-404']],
  [{ keys: ['conformance.profile.webhooks', 'webhooks.waitSeconds'] }, ['webhooks.events.every-status', 'webhooks.events.status-order', 'webhooks.ids.unique-per-event', 'webhooks.retries.after-failure', 'webhooks.ids.stable-across-retries', 'webhooks.retries.back-off', 'webhooks.deletion.nothing-after', 'webhooks.headers.timestamp-fresh']],
  [{ keys: ['api.schemas.webhook-event', 'conformance.profile.webhooks'] }, ['webhooks.payload.matches-schema']],
  [{ keys: ['webhooks.signingKey', 'conformance.profile.webhooks'] }, ['webhooks.signature.valid']],
  [{ keys: ['api.rateLimitHeaders', 'api.rateLimitPolicy', 'conformance.profile.rateLimitHeaders'] }, ['ratelimit.headers.present-and-consistent']],
  [{ keys: ['conformance.profile.rateLimitIsolation', 'credentials.secondKey'] }, ['ratelimit.isolation.second-key-unaffected']],
  [{ notDescribable: 'PROFILE.md limits unauthenticated requests per client address; no key re-describes another scheme' }, ['ratelimit.anonymous.limited-per-address']],
  [{ keys: ['api.schemas', 'api.errorSchema', 'api.successStatus'] }, ['standing.responses-match-schemas']],
];

export const DESCRIBE_KEYS: ReadonlyMap<string, Describable> = new Map(GROUPS.flatMap(([entry, ids]) => ids.map((id) => [id, entry] as const)));

/** The config keys that describe a PROFILE check's rule (empty when none does, or the check is unknown). */
export function describeKeysOf(checkId: string): readonly string[] {
  const entry = DESCRIBE_KEYS.get(checkId);
  return entry && 'keys' in entry ? entry.keys : [];
}

const valueAt = (root: unknown, key: string): unknown =>
  key.split('.').reduce<unknown>((node, part) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined), root);

let defaults: ReturnType<typeof defaultConfig> | undefined;

/**
 * A failed PROFILE result with the keys that describe it. "described": the config sets one of them to a value other
 * than PROFILE.md's default (the loaded config keeps no record of which keys a file named, so a key written with
 * its default value counts as not described).
 */
export function withDescribeKeys(result: CheckResult, config: FrozenConfig): CheckResult {
  if (result.level !== 'PROFILE' || result.status !== 'failed') return result;
  const keys = describeKeysOf(result.id);
  if (keys.length === 0) return result;
  defaults ??= defaultConfig();
  const described = keys.some((key) => JSON.stringify(valueAt(config, key)) !== JSON.stringify(valueAt(defaults, key)));
  const values = described ? {} : describedValues(keys, result.evidence?.exchanges ?? [], config);
  return { ...result, describeIn: { keys: [...keys], described, ...(Object.keys(values).length > 0 ? { values } : {}) } };
}
