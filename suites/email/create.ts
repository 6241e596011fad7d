/** Email: creating a campaign — accepted, its answer, duplicate recipients, draft versus scheduled. */
import { defineCheck } from '../../src/conformance/check.ts';
import { fail, skip } from '../../src/conformance/outcomes.ts';
import type { CheckContext } from '../../src/conformance/context.ts';
import { expect2xx, expectSuccessStatus, jsonObject } from '../../src/conformance/expect.ts';
import { campaignBody, campaignCheck, createCampaign, isoFromNow } from '../lib/campaign-ops.ts';

export const createAccepted = campaignCheck(
  defineCheck({
    id: 'email.create.accepted',
    suite: 'email',
    title: 'A campaign with name, subject, content and recipients is accepted (any 2xx)',
    level: 'MUST',
    specRef: 'SERVICE-SPEC §4 (POST /v1/email/campaigns, body per §2.5; success status not shown), §1 (email)',
    clauses: ['§4.campaigns', '§2.5', '§1.email', '§4.json'],
    async run(ctx) {
      expect2xx(await createCampaign(ctx, campaignBody()), 'create a campaign');
    },
  }),
);

export const createStatusAndBody = campaignCheck(
  defineCheck({
    id: 'email.create.status-and-body',
    suite: 'email',
    title: 'Creating a campaign answers the configured create status (201) with a body matching campaign-response',
    level: 'PROFILE',
    specRef: 'PROFILE Email campaigns ("Answer 201 {id, name, subject, status, recipients_count, schedule, created_at}"); api.successStatus.createCampaign',
    clauses: ['§4.campaigns'],
    async run(ctx) {
      const body = campaignBody();
      const res = await createCampaign(ctx, body);
      expectSuccessStatus(ctx, res, 'createCampaign', 'create a campaign');
      const created = jsonObject(res, 'create response');
      ctx.schemas.expect('campaign-response', created, 'create response');
    },
  }),
);

export const createEchoesRequest = campaignCheck(
  defineCheck({
    id: 'email.create.echoes-request',
    suite: 'email',
    title: 'The created campaign is the one sent: name and subject as sent, recipients_count the number of recipients',
    level: 'PROFILE',
    specRef: 'PROFILE Email campaigns ("Answer 201 {id, name, subject, status, recipients_count, …}": the answer object is the campaign created)',
    clauses: ['§2.5', '§4.campaigns'],
    async run(ctx) {
      const body = campaignBody(3);
      const res = await createCampaign(ctx, body);
      expect2xx(res, 'create a campaign');
      const created = jsonObject(res, 'create response');
      const sentCount = (body.recipients as string[]).length;
      const problems = (['name', 'subject'] as const)
        .filter((field) => created[field] !== body[field])
        .map((f) => `${f} is ${JSON.stringify(created[f] ?? null)}, sent ${JSON.stringify(body[f])}`);
      const answered = recipientCount(ctx, created);
      if (answered.count !== sentCount) problems.push(`${answered.field} is ${JSON.stringify(answered.count ?? null)}, sent ${sentCount} distinct recipients`);
      if (problems.length > 0) fail(`the create response is not the campaign sent: ${problems.join('; ')}`, { sent: { name: body.name, subject: body.subject, recipients: sentCount }, answered: { name: created.name ?? null, subject: created.subject ?? null, [answered.field]: answered.count ?? null } });
    },
  }),
);

export const duplicatesRemoved = campaignCheck(
  defineCheck({
    id: 'email.create.duplicate-recipients-removed',
    suite: 'email',
    title: 'Duplicate recipients are removed: recipients_count counts each address once',
    level: 'PROFILE',
    specRef: 'PROFILE Email campaigns ("duplicates are removed")',
    clauses: ['§2.5'],
    async run(ctx) {
      const body = campaignBody(3);
      const [a, b, c] = body.recipients as string[];
      body.recipients = [a, b, a, c, b];
      const res = await createCampaign(ctx, body);
      expect2xx(res, 'create a campaign with duplicate recipients');
      const { count, field } = recipientCount(ctx, jsonObject(res, 'create response'));
      if (count !== 3) fail(`5 recipients of which 3 distinct: expected ${field} 3, got ${JSON.stringify(count ?? null)}`, { expected: 3, actual: count ?? null });
    },
  }),
);

export const futureScheduleScheduled = campaignCheck(
  defineCheck({
    id: 'email.schedule.future-is-scheduled',
    suite: 'email',
    title: 'A campaign with a schedule in the future has status "scheduled"',
    level: 'PROFILE',
    specRef: 'PROFILE Email campaigns (status "scheduled" | "draft")',
    clauses: ['§2.5'],
    async run(ctx) {
      const res = await createCampaign(ctx, campaignBody(1, { schedule: isoFromNow(7 * 24 * 3600_000) }));
      expect2xx(res, 'create a campaign scheduled a week ahead');
      const status = jsonObject(res, 'create response').status;
      if (status !== 'scheduled') fail(`a campaign scheduled a week ahead: expected status "scheduled", got ${JSON.stringify(status)}`, { expected: 'scheduled', actual: status ?? null });
    },
  }),
);

export const noScheduleDraft = campaignCheck(
  defineCheck({
    id: 'email.schedule.none-is-draft',
    suite: 'email',
    title: 'A campaign without a schedule is a draft (status "draft")',
    level: 'PROFILE',
    specRef: 'PROFILE Email campaigns ("without it the campaign is a draft")',
    clauses: ['§2.5'],
    async run(ctx) {
      const res = await createCampaign(ctx, campaignBody(1));
      expect2xx(res, 'create a campaign without a schedule');
      const status = jsonObject(res, 'create response').status;
      if (status !== 'draft') fail(`a campaign without a schedule: expected status "draft", got ${JSON.stringify(status)}`, { expected: 'draft', actual: status ?? null });
    },
  }),
);

/**
 * How many recipients the answer says the campaign has: PROFILE's `recipients_count`, or — for a target whose own
 * campaign-response schema (api.schemas) lists the addresses instead — the length of its `recipients` list. A
 * target whose own schema has neither cannot be judged on this: the check does not run, and says so.
 */
function recipientCount(ctx: CheckContext, created: Record<string, unknown>): { count: number | undefined; field: string } {
  if (typeof created.recipients_count === 'number') return { count: created.recipients_count, field: 'recipients_count' };
  if (Array.isArray(created.recipients)) return { count: created.recipients.length, field: 'the length of recipients' };
  if (ctx.config.api.schemas['campaign-response'] !== undefined) {
    skip('the answer has neither recipients_count nor a recipients list, and the target describes its own campaign answer (api.schemas.campaign-response): the recipient count cannot be read');
  }
  return { count: undefined, field: 'recipients_count' };
}
