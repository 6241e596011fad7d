/**
 * Email: campaigns the service must refuse (PROFILE Email campaigns: required fields, valid addresses, 1 or more
 * recipients, a schedule in the future). "Refused" is any status of api.rejectedStatus (default 400 or 422).
 */
import { defineCheck } from '../../src/conformance/check.ts';
import { fail } from '../../src/conformance/outcomes.ts';
import type { CheckContext } from '../../src/conformance/context.ts';
import { expectStatus } from '../../src/conformance/expect.ts';
import { campaignBody, campaignCheck, createCampaign, isoFromNow } from '../lib/campaign-ops.ts';

const REQUIRED = ['name', 'subject', 'content', 'recipients'] as const;

async function expectRejected(ctx: CheckContext, body: Record<string, unknown>, what: string): Promise<void> {
  expectStatus(await createCampaign(ctx, body), ctx.config.api.rejectedStatus, what);
}

export const missingFieldRejected = campaignCheck(
  defineCheck({
    id: 'email.validation.missing-field-rejected',
    suite: 'email',
    title: 'A campaign without name, subject, content or recipients is rejected (each field left out in turn)',
    level: 'PROFILE',
    specRef: 'PROFILE Email campaigns ("Required: name, subject, content, recipients"); api.rejectedStatus',
    clauses: ['§2.5'],
    async run(ctx) {
      const wanted = ctx.config.api.rejectedStatus;
      const accepted: Array<{ missing: string; status: number }> = [];
      for (const field of REQUIRED) {
        const body = campaignBody();
        delete body[field];
        const res = await createCampaign(ctx, body);
        if (!wanted.includes(res.status)) accepted.push({ missing: field, status: res.status });
      }
      if (accepted.length > 0) {
        fail(`expected ${wanted.join(' or ')} for a campaign missing a required field, got: ${accepted.map((a) => `without ${a.missing} → ${a.status}`).join('; ')}`, { expected: wanted, actual: accepted });
      }
    },
  }),
);

export const badAddressRejected = campaignCheck(
  defineCheck({
    id: 'email.validation.bad-address-rejected',
    suite: 'email',
    title: 'A campaign with a recipient that is not an email address is rejected',
    level: 'PROFILE',
    specRef: 'PROFILE Email campaigns ("syntactically valid addresses"); api.rejectedStatus',
    clauses: ['§2.5'],
    async run(ctx) {
      const body = campaignBody(1);
      body.recipients = [...(body.recipients as string[]), 'not-an-email-address'];
      await expectRejected(ctx, body, 'a campaign with the recipient "not-an-email-address"');
    },
  }),
);

export const emptyRecipientsRejected = campaignCheck(
  defineCheck({
    id: 'email.validation.empty-recipients-rejected',
    suite: 'email',
    title: 'A campaign with an empty recipient list is rejected',
    level: 'PROFILE',
    specRef: 'PROFILE Email campaigns ("recipients (1–10,000 …)"); api.rejectedStatus',
    clauses: ['§2.5'],
    async run(ctx) {
      await expectRejected(ctx, campaignBody(1, { recipients: [] }), 'a campaign with recipients []');
    },
  }),
);

export const pastScheduleRejected = campaignCheck(
  defineCheck({
    id: 'email.validation.past-schedule-rejected',
    suite: 'email',
    title: 'A campaign scheduled in the past is rejected',
    level: 'PROFILE',
    specRef: 'PROFILE Email campaigns ("schedule: ISO 8601 UTC in the future (past: 400)"); api.rejectedStatus',
    clauses: ['§2.5'],
    async run(ctx) {
      const schedule = isoFromNow(-3600_000);
      await expectRejected(ctx, campaignBody(1, { schedule }), `a campaign scheduled an hour ago (${schedule})`);
    },
  }),
);
