/**
 * A `RateLimit-Policy` sent beside older fields (RateLimit-Limit/-Remaining/-Reset or X-RateLimit-*): read in
 * whichever form it uses, unnamed quota policies (`100;w=60`, drafts -04 to -07) or named ones
 * (`"p";q=100;w=60`, -08 on), so that it can give the limit its window. The mix is noted, not a finding:
 * servers that moved their policy field to a newer draft and kept the older fields exist (PROFILE-free).
 */
import { items, quotaItemPolicies, tryList, isName, type QuotaPolicy } from './common.ts';
import { parsePolicyHeader } from './ietf-named.ts';

export function policiesBeside(value: string, beside: string, findings: string[], notes: string[]): QuotaPolicy[] {
  const list = tryList(value);
  if (list !== undefined && list.length > 0 && list.every((e) => isName(e.item))) {
    notes.push(`RateLimit-Policy uses the named policies of draft -08 on beside ${beside}`);
    return parsePolicyHeader(value, findings, notes).map((p) => ({
      name: p.name,
      ...(p.quota !== undefined ? { quota: p.quota } : {}),
      ...(p.windowS !== undefined ? { windowS: p.windowS } : {}),
      ...(p.quotaUnit !== undefined ? { quotaUnit: p.quotaUnit } : {}),
    }));
  }
  return quotaItemPolicies(items(value, 'RateLimit-Policy', findings), 'RateLimit-Policy', findings);
}
