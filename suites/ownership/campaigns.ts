/**
 * A campaign belongs to the account that created it: account B's credential reading it by id is refused (MUST,
 * that it is refused), and nothing of it is shown. Account A's campaign is created once per run and shared by the
 * refusal-status check (refusal.ts).
 */
import { defineCheck } from '../../src/conformance/check.ts';
import { fail } from '../../src/conformance/outcomes.ts';
import type { CheckContext } from '../../src/conformance/context.ts';
import { expect2xx, jsonObject } from '../../src/conformance/expect.ts';
import { campaignBody, campaignId } from '../lib/campaign-ops.ts';
import { MUST_CLAUSES, MUST_REF, as, echoed, is2xx, ownershipCheck } from './lib/accounts.ts';

export interface OwnedCampaign {
  id: string;
  /** Its name and subject: what B's answer must not show. */
  marks: string[];
}

/** Account A's campaign, created once per run. */
export function accountACampaign(ctx: CheckContext): Promise<OwnedCampaign> {
  return ctx.memo('ownership.campaign', async () => {
    const body = campaignBody(1);
    const res = await as(ctx, 'A', { method: 'POST', path: ctx.path('createCampaign'), json: body });
    expect2xx(res, "create account A's campaign");
    jsonObject(res, "account A's campaign");
    const id = campaignId(res);
    if (!id) fail("create account A's campaign: the answer has no id to read it by");
    return { id, marks: [body.name as string, body.subject as string] };
  });
}

export function readAsB(ctx: CheckContext, id: string) {
  return as(ctx, 'B', { method: 'GET', path: ctx.path('getCampaign', { id }) });
}

export const campaignReadRefused = ownershipCheck(
  defineCheck({
    id: 'ownership.campaign.read-refused',
    suite: 'ownership',
    title: "Another account's credential reading a campaign by id is refused and shows nothing of it",
    level: 'MUST',
    specRef: MUST_REF,
    clauses: [...MUST_CLAUSES, '§4.campaigns'],
    async run(ctx) {
      const campaign = await accountACampaign(ctx);
      const res = await readAsB(ctx, campaign.id);
      if (is2xx(res)) fail(`account B read account A's campaign ${campaign.id} (${res.status})`, { expected: 'a refusal (404 or 403)', actual: res.status });
      const shown = echoed(res, campaign.marks);
      if (shown.length > 0) fail(`account B's refused read of account A's campaign ${campaign.id} shows its ${shown.length === 2 ? 'name and subject' : 'name or subject'}`, { actual: shown });
    },
  }),
  'campaigns',
);
