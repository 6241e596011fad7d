/**
 * How another account's resource is refused is the profile's choice (PROFILE.md "Accounts, ownership and
 * exposure"): the reference answers 404 exactly as for an unknown id, so nothing tells a foreign id from a missing
 * one. A target that answers 403 says so in its config (`api.ownership.refusal: forbidden` or `either`).
 */
import { randomBytes } from 'node:crypto';
import { defineCheck } from '../../src/conformance/check.ts';
import { fail, skip } from '../../src/conformance/outcomes.ts';
import type { CheckContext } from '../../src/conformance/context.ts';
import type { OwnershipRefusal } from '../../src/config/types.ts';
import type { HttpResponse } from '../../src/http/client.ts';
import { as, ownershipCheck } from './lib/accounts.ts';
import { accountACampaign, readAsB } from './campaigns.ts';

const STATUSES: Record<OwnershipRefusal, readonly number[]> = { 'not-found': [404], forbidden: [403], either: [403, 404] };

/** The problem `code` of an error body, when it has one. */
function codeOf(res: HttpResponse): unknown {
  return res.json<Record<string, unknown>>()?.code;
}

export const refusalStatus = ownershipCheck(
  defineCheck({
    id: 'ownership.refusal.status',
    suite: 'ownership',
    title: "Another account's campaign is refused with the configured status (404 exactly like an unknown id, by default)",
    level: 'PROFILE',
    specRef: 'PROFILE Accounts, ownership and exposure ("the reference answers 404 exactly as for an unknown id"); api.ownership.refusal',
    clauses: ['§5.5', '§7.403'],
    async run(ctx: CheckContext) {
      const refusal = ctx.config.api.ownership.refusal;
      const campaign = await accountACampaign(ctx);
      const foreign = await readAsB(ctx, campaign.id);
      // Not refused at all is the MUST check's finding; how a refusal looks cannot be judged on an answer.
      if (foreign.status >= 200 && foreign.status <= 299) skip(`account B's read of account A's campaign was not refused (${foreign.status}): ownership.campaign.read-refused judges that`);
      const expected = STATUSES[refusal];
      if (!expected.includes(foreign.status)) {
        fail(`account B's read of account A's campaign ${campaign.id} answered ${foreign.status}; api.ownership.refusal "${refusal}" expects ${expected.join(' or ')}`, { expected, actual: foreign.status });
      }
      if (foreign.status !== 404) return;
      // 404 claims "no such campaign": it must read exactly like an id that does not exist, or it tells them apart.
      const unknown = await as(ctx, 'B', { method: 'GET', path: ctx.path('getCampaign', { id: `cmp_ownership_unknown_${randomBytes(6).toString('hex')}` }) });
      if (unknown.status !== foreign.status || codeOf(unknown) !== codeOf(foreign)) {
        fail(`account B's read of account A's campaign answered ${foreign.status} ${JSON.stringify(codeOf(foreign))}, an unknown id ${unknown.status} ${JSON.stringify(codeOf(unknown))}: the two can be told apart`, {
          expected: { status: unknown.status, code: codeOf(unknown) ?? null },
          actual: { status: foreign.status, code: codeOf(foreign) ?? null },
        });
      }
    },
  }),
  'campaigns',
);
