/**
 * The ownership suite (OWASP API1:2023, broken object-level authorization): a second account's credential
 * (credentials.otherAccount) never reads, lists or deletes what the first account's key created. That it is
 * refused is MUST (SERVICE-SPEC §5 rule 5, §7 403); the refusal's status is PROFILE (api.ownership.refusal).
 * A target that declares one account (target.accounts: single) gets "not applicable" on every check.
 */
import type { Suite } from '../../src/conformance/registry.ts';
import { campaignReadRefused } from './campaigns.ts';
import { idempotencyKeyIsolated } from './idempotency.ts';
import { cursorIsolated, filteredListIsolated, listIsolated } from './messages.ts';
import { refusalStatus } from './refusal.ts';
import { webhookDeleteRefused, webhookListIsolated } from './webhooks.ts';

export const ownershipSuite: Suite = {
  name: 'ownership',
  title: 'Ownership across accounts',
  checks: [
    campaignReadRefused,
    refusalStatus,
    listIsolated,
    filteredListIsolated,
    cursorIsolated,
    webhookListIsolated,
    webhookDeleteRefused,
    idempotencyKeyIsolated,
  ],
};
