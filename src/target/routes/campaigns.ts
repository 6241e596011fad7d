/**
 * POST /v1/email/campaigns and GET /v1/email/campaigns/{id}, both with scope campaigns:write (the profile
 * names no read scope for campaigns). Rules beyond the schema: content at most 1 MiB of UTF-8, a schedule in
 * the future, recipients deduplicated case-insensitively.
 */
import type { FastifyPluginAsync } from 'fastify';
import { requireAuth } from '../auth/guard.ts';
import type { TargetContext } from '../context.ts';
import { ProblemError, validationFailed, type FieldError } from '../http/problem.ts';
import { isoTime, resourceId } from '../ids.ts';
import type { Campaign } from '../model.ts';
import { API_CREDENTIALS } from './messages.ts';

export const MAX_CONTENT_BYTES = 1024 * 1024;
const PATH = '/v1/email/campaigns';

interface CampaignBody {
  name: string;
  subject: string;
  content: string;
  recipients: string[];
  schedule?: string;
}

export const campaignRoutes: FastifyPluginAsync<{ ctx: TargetContext }> = async (app, { ctx }) => {
  const guard = requireAuth({ kinds: API_CREDENTIALS, scope: 'campaigns:write' });

  app.post(PATH, { onRequest: guard }, async (request, reply) => {
    ctx.validator.assert('campaign-request', request.body);
    const body = request.body as CampaignBody;
    const now = ctx.now();
    const errors: FieldError[] = [];
    if (Buffer.byteLength(body.content, 'utf8') > MAX_CONTENT_BYTES) {
      errors.push({ path: '/content', message: `must not be larger than ${MAX_CONTENT_BYTES} bytes` });
    }
    const scheduleAt = body.schedule === undefined ? undefined : Date.parse(body.schedule);
    if (scheduleAt !== undefined && !(scheduleAt > now)) {
      errors.push({ path: '/schedule', message: 'must be in the future' });
    }
    if (errors.length > 0) throw validationFailed(errors);

    const campaign: Campaign = {
      id: resourceId('cmp', now),
      name: body.name,
      subject: body.subject,
      status: scheduleAt === undefined ? 'draft' : 'scheduled',
      recipients_count: new Set(body.recipients.map((r) => r.toLowerCase())).size,
      schedule: scheduleAt === undefined ? null : isoTime(scheduleAt),
      created_at: isoTime(now),
    };
    ctx.campaigns.add(campaign, request.auth.principal!.accountId);
    return reply.code(201).header('Location', `${PATH}/${campaign.id}`).send(campaign);
  });

  app.get<{ Params: { id: string } }>(`${PATH}/:id`, { onRequest: guard }, async (request) => {
    // Another account's campaign is answered exactly like an unknown id: nothing says it exists.
    const campaign = ctx.campaigns.get(request.params.id, request.auth.principal!.accountId);
    if (!campaign) throw new ProblemError(404, 'not_found', { detail: 'No campaign with this id.' });
    return campaign;
  });
};
