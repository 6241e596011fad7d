/**
 * The email checks' precondition; the campaign operations as the checks call them (paths from the config, the
 * API key as credential); valid campaign bodies with unique names and addresses, so runs never collide.
 */
import { randomBytes } from 'node:crypto';
import type { Check } from '../../src/conformance/check.ts';
import type { CheckContext } from '../../src/conformance/context.ts';
import { guarded, requiresCredential, requiresProfile } from '../../src/conformance/preconditions.ts';
import type { HttpResponse } from '../../src/http/client.ts';

/** Every email check needs the campaigns PROFILE area and the API key (the credential with campaigns:write). */
export function campaignCheck(check: Check): Check {
  return guarded(check, requiresProfile('campaigns'), requiresCredential('apiKey'));
}

export function createCampaign(ctx: CheckContext, body: unknown): Promise<HttpResponse> {
  return ctx.http.request({ method: 'POST', path: ctx.path('createCampaign'), json: body, bearer: ctx.credentials.apiKey });
}

export function getCampaign(ctx: CheckContext, id: string): Promise<HttpResponse> {
  return ctx.http.request({ method: 'GET', path: ctx.path('getCampaign', { id }), bearer: ctx.credentials.apiKey });
}

/** A valid campaign (§2.5 fields, no schedule: a draft) with `count` distinct recipients. */
export function campaignBody(count = 2, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const run = randomBytes(4).toString('hex');
  return {
    name: `conformance ${run}`,
    subject: `Conformance check ${run}`,
    content: '<html><body><p>Hello from the conformance harness.</p></body></html>',
    recipients: Array.from({ length: count }, (_, i) => `recipient-${run}-${i + 1}@example.com`),
    ...extra,
  };
}

/** An ISO 8601 UTC date-time `ms` from now, whole seconds. */
export function isoFromNow(ms: number): string {
  return new Date(Math.floor((Date.now() + ms) / 1000) * 1000).toISOString();
}

/** The created campaign's id, or undefined when the answer has none. */
export function campaignId(res: HttpResponse): string | undefined {
  const id = res.json<Record<string, unknown>>()?.id;
  return typeof id === 'string' && id.length > 0 ? id : undefined;
}
