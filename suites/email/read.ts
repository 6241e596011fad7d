/** Email: reading a campaign back by id. */
import { randomBytes } from 'node:crypto';
import { defineCheck } from '../../src/conformance/check.ts';
import { fail } from '../../src/conformance/outcomes.ts';
import { expect2xx, expectStatus, jsonObject } from '../../src/conformance/expect.ts';
import { campaignBody, campaignCheck, campaignId, createCampaign, getCampaign, isoFromNow } from '../lib/campaign-ops.ts';
import { canonicalJson } from '../../src/util/deep-json.ts';

export const readSameObject = campaignCheck(
  defineCheck({
    id: 'email.read.same-object',
    suite: 'email',
    title: 'Reading a campaign by id answers 200 with the same object its creation answered',
    level: 'PROFILE',
    specRef: 'PROFILE Email campaigns ("GET /v1/email/campaigns/{id} answers 200 with the same object"); api.successStatus.getCampaign',
    clauses: ['§4.campaigns'],
    async run(ctx) {
      const res = await createCampaign(ctx, campaignBody(2, { schedule: isoFromNow(3 * 24 * 3600_000) }));
      expect2xx(res, 'create a campaign');
      const created = jsonObject(res, 'create response');
      const id = campaignId(res);
      if (!id) fail('create response: no "id" to read the campaign back with');
      const read = await getCampaign(ctx, id);
      expectStatus(read, [ctx.config.api.successStatus.getCampaign], `read campaign ${id}`);
      const got = jsonObject(read, 'read response');
      const differing = [...new Set([...Object.keys(created), ...Object.keys(got)])].filter((k) => canonicalJson(created[k]) !== canonicalJson(got[k]));
      if (differing.length > 0) {
        fail(`campaign ${id} read back differs from what its creation answered in ${differing.join(', ')}`, {
          expected: Object.fromEntries(differing.map((k) => [k, created[k] ?? null])),
          actual: Object.fromEntries(differing.map((k) => [k, got[k] ?? null])),
        });
      }
    },
  }),
);

export const unknownIdNotFound = campaignCheck(
  defineCheck({
    id: 'email.read.unknown-id-404',
    suite: 'email',
    title: 'Reading a campaign id that does not exist answers 404',
    level: 'PROFILE',
    specRef: 'PROFILE Email campaigns ("404 when unknown")',
    clauses: ['§4.campaigns'],
    async run(ctx) {
      const id = `cmp_conformance_unknown_${randomBytes(6).toString('hex')}`;
      expectStatus(await getCampaign(ctx, id), [404], `read of the unknown campaign ${id}`);
    },
  }),
);
