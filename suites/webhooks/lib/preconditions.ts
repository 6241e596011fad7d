/** Wrappers shared by the webhook checks. */
import { withPrecondition } from '../../../src/conformance/preconditions.ts';

/** The management endpoints are in use (not a webhook registered by hand). */
export const requiresManagement = withPrecondition((ctx) =>
  ctx.config.webhooks.preRegistered
    ? 'webhooks.preRegistered is set: the webhook was registered by hand, so the management endpoints are not used'
    : undefined,
);
