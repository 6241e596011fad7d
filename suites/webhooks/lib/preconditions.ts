/** Wrappers shared by the webhook checks. */
import type { Check } from '../../../src/conformance/check.ts';
import { guarded, requiresCredential, requiresProfile, withPrecondition } from '../../../src/conformance/preconditions.ts';

/** The management endpoints are in use (not a webhook registered by hand). */
export const requiresManagement = withPrecondition((ctx) =>
  ctx.config.webhooks.preRegistered
    ? 'webhooks.preRegistered is set: the webhook was registered by hand, so the management endpoints are not used'
    : undefined,
);

/** A webhook check's usual preconditions: the webhooks profile, then the API key, then any of `more`. */
export function webhookCheck(check: Check, ...more: Array<(check: Check) => Check>): Check {
  return guarded(check, requiresProfile('webhooks'), requiresCredential('apiKey'), ...more);
}
