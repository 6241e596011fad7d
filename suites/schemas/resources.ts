/** Schemas: the campaign resource and the error body (problem details). */
import { randomBytes } from 'node:crypto';
import { defineCheck } from '../../src/conformance/check.ts';
import { fail } from '../../src/conformance/outcomes.ts';
import { expect2xx } from '../../src/conformance/expect.ts';
import { guarded, requiresCredential, requiresProfile } from '../../src/conformance/preconditions.ts';
import { campaignBody, campaignId, createCampaign, getCampaign, isoFromNow } from '../lib/campaign-ops.ts';
import { jsonBody } from './lib/spec-fields.ts';

export const campaignSchema = guarded(
  defineCheck({
    id: 'schemas.campaign.schema',
    suite: 'schemas',
    title: 'A created campaign and the same campaign read back match schema campaign-response',
    level: 'PROFILE',
    specRef: 'PROFILE Email campaigns ("Answer 201 {id, name, subject, status, recipients_count, schedule, created_at}"); schemas/api/campaign-response.schema.json',
    clauses: ['§2.5', '§4.campaigns'],
    async run(ctx) {
      const created = await createCampaign(ctx, campaignBody(2, { schedule: isoFromNow(24 * 3600_000) }));
      expect2xx(created, 'create a campaign');
      ctx.schemas.expect('campaign-response', jsonBody(created, 'create response'), 'create response');
      const id = campaignId(created);
      if (!id) fail('create response: no "id" to read the campaign back with');
      const read = await getCampaign(ctx, id);
      expect2xx(read, `read campaign ${id}`);
      ctx.schemas.expect('campaign-response', jsonBody(read, 'read response'), 'read response');
    },
  }),
  requiresCredential('apiKey'),
  requiresProfile('campaigns'),
);

export const notFoundProblem = guarded(
  defineCheck({
    id: 'schemas.error.not-found-problem',
    suite: 'schemas',
    title: 'A 404 for an unknown path carries an error body matching the configured error schema (problem details)',
    level: 'PROFILE',
    specRef: 'PROFILE General ("Errors are application/problem+json (RFC 9457)", "Unknown path: 404"); api.errorSchema',
    clauses: [],
    async run(ctx) {
      const path = `${ctx.path('listMessages')}/conformance-unknown-${randomBytes(6).toString('hex')}/nested`;
      const res = await ctx.http.request({ method: 'GET', path, bearer: ctx.credentials.apiKey });
      if (res.status !== 404) fail(`GET of an unknown path: expected 404, got ${res.status}`, { expected: 404, actual: res.status });
      ctx.schemas.expect('error', jsonBody(res, '404 answer'), '404 error body');
    },
  }),
  requiresCredential('apiKey'),
);
