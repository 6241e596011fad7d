/**
 * draft-ietf-httpapi-ratelimit-headers-00 to -06: three fields, `RateLimit-Limit`, `RateLimit-Remaining` and
 * `RateLimit-Reset` (delay-seconds).
 * - -00 to -03: the window rides in `RateLimit-Limit` itself, as quota policies after the limit:
 *   `RateLimit-Limit: 100, 100;w=60, 1000;w=3600` (an ABNF list in -00/-01, an RFC 8941 List from -02).
 * - -04 to -06: `RateLimit-Limit` is a single Integer and the policies move to `RateLimit-Policy: 100;w=60`.
 * The limit is the "expiring limit"; its window is the quota policy with the same quota. Remaining is optional
 * ("MAY"), Reset required once Limit is sent. express-rate-limit's `standardHeaders: 'draft-6'` (its default);
 * @fastify/rate-limit's `enableDraftSpec: true` (no policy: the window is then not stated).
 */
import { header, integerField, items, quotaItemPolicies, readReset, windowForLimit, type HeaderBag, type QuotaPolicy, type ReadContext, type ReadingValues } from './common.ts';
import { policiesBeside } from './policy.ts';

export const FIELDS_REVISIONS = {
  early: 'draft-ietf-httpapi-ratelimit-headers-00 to -03 (RateLimit-Limit with quota policies, -Remaining, -Reset)',
  policy: 'draft-ietf-httpapi-ratelimit-headers-04 to -06 (RateLimit-Limit, -Remaining, -Reset and RateLimit-Policy)',
  any: 'draft-ietf-httpapi-ratelimit-headers-00 to -06 (RateLimit-Limit, -Remaining, -Reset)',
};

export function readIetfFields(headers: HeaderBag, ctx: ReadContext): ReadingValues {
  const { findings, notes } = ctx;
  const out: ReadingValues = {};
  const fields: Record<string, string> = {};
  let policies: QuotaPolicy[] = [];
  let inLimit = false;
  const limitValue = header(headers, 'ratelimit-limit');
  if (limitValue === undefined) findings.push('RateLimit-Limit is missing');
  else {
    fields['RateLimit-Limit'] = limitValue;
    const entries = items(limitValue, 'RateLimit-Limit', findings);
    const first = entries[0];
    if (first && first.item.kind === 'integer' && first.item.value >= 0) out.quota = first.item.value;
    else if (entries.length > 0) findings.push(`RateLimit-Limit must start with a non-negative integer, got ${JSON.stringify(limitValue)}`);
    if (entries.length > 1) {
      inLimit = true;
      policies = quotaItemPolicies(entries.slice(1), 'RateLimit-Limit', findings);
    }
  }
  const policyValue = header(headers, 'ratelimit-policy');
  if (policyValue !== undefined) {
    fields['RateLimit-Policy'] = policyValue;
    policies = [...policies, ...policiesBeside(policyValue, 'RateLimit-Limit, -Remaining and -Reset', findings, notes)];
  }
  out.revision = policyValue !== undefined ? FIELDS_REVISIONS.policy : inLimit ? FIELDS_REVISIONS.early : FIELDS_REVISIONS.any;
  if (policies.length > 0) out.policies = policies;
  const policy = windowForLimit(out.quota, policies, policyValue !== undefined ? 'RateLimit-Policy' : 'RateLimit-Limit', notes);
  if (policy?.windowS !== undefined) out.windowS = policy.windowS;
  const remainingValue = header(headers, 'ratelimit-remaining');
  if (remainingValue !== undefined) fields['RateLimit-Remaining'] = remainingValue;
  const remaining = integerField(headers, 'ratelimit-remaining', 'RateLimit-Remaining', findings, false);
  if (remaining !== undefined) out.remaining = remaining;
  const resetValue = header(headers, 'ratelimit-reset');
  if (resetValue === undefined) findings.push('RateLimit-Reset is missing');
  else {
    fields['RateLimit-Reset'] = resetValue;
    // Parameters are ignored (-02 on); the value is delay-seconds, an epoch time is a finding but still read.
    const reset = readReset(resetValue.replace(/;.*$/, ''), 'RateLimit-Reset', ctx, true);
    if (reset) {
      out.resetS = reset.resetS;
      if (reset.form !== 'delta-seconds') out.resetForm = reset.form;
    }
  }
  out.fields = fields;
  return out;
}
