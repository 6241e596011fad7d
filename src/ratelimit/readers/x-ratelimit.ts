/**
 * The vendor convention `X-RateLimit-Limit`, `-Remaining`, `-Reset` (also spelt `X-Rate-Limit-*`), with the
 * optional `X-RateLimit-Used` (GitHub). No standard defines it, so:
 * - the reset may be delta seconds, Unix epoch seconds (express-rate-limit's legacy headers, GitHub), epoch
 *   milliseconds or an HTTP-date; they are told apart by magnitude against the response's Date (else the local
 *   clock) and the form assumed is a note (common.ts `readReset`);
 * - Reset is optional (many services send only Limit and Remaining): a missing one is no finding;
 * - the window is stated only by a quota policy: inside the limit (`100, 100;w=60`) or in a `RateLimit-Policy`
 *   sent beside the X- fields (the policy with the limit's quota). Otherwise it is not stated, and
 *   api.rateLimitPolicy can give it.
 * @fastify/rate-limit (delta reset) and express-rate-limit's `legacyHeaders` (epoch-seconds reset) send it.
 */
import { header, integerField, items, quotaItemPolicies, readReset, windowForLimit, type HeaderBag, type QuotaPolicy, type ReadContext, type ReadingValues } from './common.ts';
import { policiesBeside } from './policy.ts';

const PREFIXES = ['x-ratelimit', 'x-rate-limit'] as const;
const SPELLING: Record<(typeof PREFIXES)[number], string> = { 'x-ratelimit': 'X-RateLimit', 'x-rate-limit': 'X-Rate-Limit' };

/** The prefix the response uses, when it sends any X-RateLimit-* or X-Rate-Limit-* field. */
export function xPrefix(headers: HeaderBag): (typeof PREFIXES)[number] | undefined {
  return PREFIXES.find((p) => ['limit', 'remaining', 'reset', 'used'].some((n) => header(headers, `${p}-${n}`) !== undefined));
}

export function readXRateLimitValues(headers: HeaderBag, ctx: ReadContext): ReadingValues {
  const { findings, notes } = ctx;
  const prefix = xPrefix(headers) ?? 'x-ratelimit';
  const name = SPELLING[prefix];
  const out: ReadingValues = { revision: `${name}-* (vendor convention, no standard)` };
  const fields: Record<string, string> = {};
  const limitValue = header(headers, `${prefix}-limit`);
  let policies: QuotaPolicy[] = [];
  if (limitValue !== undefined) {
    fields[`${name}-Limit`] = limitValue;
    // Some services append quota policies (`100, 100;w=60`); the leading integer is the limit.
    const match = /^\s*(\d+)\s*(?:[,;]|$)/.exec(limitValue);
    if (match) out.quota = Number(match[1]);
    else findings.push(`${name}-Limit must be a non-negative integer, got ${JSON.stringify(limitValue)}`);
    const w = /;\s*w=(\d+)/.exec(limitValue);
    if (/,/.test(limitValue)) policies = quotaItemPolicies(items(limitValue, `${name}-Limit`, []).slice(1), `${name}-Limit`, findings);
    else if (w && Number(w[1]) > 0 && out.quota !== undefined) policies = [{ quota: out.quota, windowS: Number(w[1]) }];
  }
  const remainingValue = header(headers, `${prefix}-remaining`);
  if (remainingValue !== undefined) fields[`${name}-Remaining`] = remainingValue;
  const remaining = integerField(headers, `${prefix}-remaining`, `${name}-Remaining`, findings, true);
  if (remaining !== undefined) out.remaining = remaining;
  const usedValue = header(headers, `${prefix}-used`);
  if (usedValue !== undefined) {
    fields[`${name}-Used`] = usedValue;
    const used = integerField(headers, `${prefix}-used`, `${name}-Used`, findings, false);
    if (used !== undefined) out.used = used;
  }
  if (limitValue === undefined) {
    if (out.used !== undefined && out.remaining !== undefined) {
      out.quota = out.used + out.remaining;
      notes.push(`${name}-Limit is absent; the limit is read as ${name}-Used + ${name}-Remaining = ${out.quota}`);
    } else findings.push(`${name}-Limit is missing`);
  } else if (out.used !== undefined && out.remaining !== undefined && out.quota !== undefined && out.used + out.remaining !== out.quota) {
    findings.push(`${name}-Used (${out.used}) + ${name}-Remaining (${out.remaining}) is not ${name}-Limit (${out.quota})`);
  }
  const resetValue = header(headers, `${prefix}-reset`);
  if (resetValue !== undefined) {
    fields[`${name}-Reset`] = resetValue;
    const reset = readReset(resetValue, `${name}-Reset`, ctx, false);
    if (reset) {
      out.resetS = reset.resetS;
      if (reset.form !== 'delta-seconds') out.resetForm = reset.form;
    }
  }
  // RateLimit-Policy beside the X- fields (express-rate-limit's draft-6/-7 with legacyHeaders): its window.
  const policyValue = header(headers, 'ratelimit-policy');
  if (policyValue !== undefined) {
    fields['RateLimit-Policy'] = policyValue;
    const beside = policiesBeside(policyValue, `${name}-*`, findings, notes);
    policies = [...policies, ...beside];
  }
  if (policies.length > 0) out.policies = policies;
  const policy = windowForLimit(out.quota, policies, policyValue !== undefined ? `RateLimit-Policy (beside ${name}-*)` : `${name}-Limit`, notes);
  if (policy?.windowS !== undefined) out.windowS = policy.windowS;
  out.fields = fields;
  return out;
}
