/**
 * draft-ietf-httpapi-ratelimit-headers-08 to -11: named policies. `RateLimit-Policy: "default";q=100;w=60` and
 * `RateLimit: "default";r=50;t=30`, both RFC 9651 Lists, possibly naming several policies (params q, qu, w, pk on a
 * policy; r, t, pk on a RateLimit item). Drafts -08 to -10 require the name to be a String; -11 also allows a
 * Token, so a Token name is read (and noted), not a finding. express-rate-limit's `standardHeaders: 'draft-8'`.
 */
import { bytesParam, header, intParam, items, describe, type HeaderBag, type QuotaPolicy, type ReadContext, type ReadingValues } from './common.ts';
import type { SfItem } from '../structured-fields.ts';

export const NAMED_REVISION = 'draft-ietf-httpapi-ratelimit-headers-08 to -11 (named policies: RateLimit-Policy "name";q=;w= and RateLimit "name";r=;t=)';

/** The quota units the drafts register (-08 on); another value is read but noted. */
const QUOTA_UNITS = ['requests', 'content-bytes', 'concurrent-requests'];

export interface IetfPolicy {
  name: string;
  quota?: number;
  windowS?: number;
  quotaUnit?: string;
  partitionKey?: Uint8Array;
}

export interface IetfLimit {
  name: string;
  remaining?: number;
  resetS?: number;
  partitionKey?: Uint8Array;
}

/** `RateLimit-Policy` of draft -08 on: one entry per policy item. */
export function parsePolicyHeader(value: string, findings: string[], notes: string[] = []): IetfPolicy[] {
  return items(value, 'RateLimit-Policy', findings).map((entry) => {
    const name = itemName(entry, 'RateLimit-Policy', findings, notes);
    const where = `RateLimit-Policy "${name}"`;
    const policy: IetfPolicy = { name };
    const q = intParam(entry, 'q', where, findings, true);
    if (q !== undefined) policy.quota = q;
    const w = intParam(entry, 'w', where, findings, false);
    if (w !== undefined) {
      // -10 on: "non-negative, non-zero"; a window of 0 s cannot hold a quota in any revision.
      if (w === 0) findings.push(`${where}: w must be a positive integer, got 0`);
      else policy.windowS = w;
    }
    const qu = entry.params.get('qu');
    if (qu) {
      if (qu.kind === 'string' || qu.kind === 'token') {
        policy.quotaUnit = qu.value;
        if (!QUOTA_UNITS.includes(qu.value)) notes.push(`${where}: qu="${qu.value}" is not a registered quota unit (${QUOTA_UNITS.join(', ')})`);
      } else findings.push(`${where}: qu must be a String`);
    }
    const pk = bytesParam(entry, where, findings);
    if (pk) policy.partitionKey = pk;
    return policy;
  });
}

/** `RateLimit` of draft -08 on: one entry per item (remaining r, reset t). */
export function parseRateLimitHeader(value: string, findings: string[], notes: string[] = []): IetfLimit[] {
  return items(value, 'RateLimit', findings).map((entry) => {
    const name = itemName(entry, 'RateLimit', findings, notes);
    const limit: IetfLimit = { name };
    const r = intParam(entry, 'r', `RateLimit "${name}"`, findings, true);
    if (r !== undefined) limit.remaining = r;
    const t = intParam(entry, 't', `RateLimit "${name}"`, findings, false);
    if (t !== undefined) limit.resetS = t;
    const pk = bytesParam(entry, `RateLimit "${name}"`, findings);
    if (pk) limit.partitionKey = pk;
    return limit;
  });
}

/** Reads the -08+ pair; with several policies the binding one (fewest remaining) is reported. */
export function readIetfNamed(headers: HeaderBag, ctx: ReadContext): ReadingValues {
  const { findings, notes } = ctx;
  const policyValue = header(headers, 'ratelimit-policy');
  const limitValue = header(headers, 'ratelimit');
  const policies = policyValue === undefined ? [] : parsePolicyHeader(policyValue, findings, notes);
  const limits = limitValue === undefined ? [] : parseRateLimitHeader(limitValue, findings, notes);
  if (policyValue === undefined) findings.push('RateLimit-Policy is missing');
  if (limitValue === undefined) findings.push('RateLimit is missing');
  for (const limit of limits) {
    if (policyValue !== undefined && !policies.some((p) => p.name === limit.name)) {
      findings.push(`RateLimit names policy "${limit.name}", which RateLimit-Policy does not announce`);
    }
  }
  const known = limits.filter((l) => l.remaining !== undefined);
  const binding = [...known].sort((a, b) => a.remaining! - b.remaining!)[0] ?? limits[0];
  // A RateLimit item that names no announced policy was reported above; with one policy, that one is meant.
  const policy = policies.find((p) => p.name === binding?.name) ?? (!binding || policies.length === 1 ? policies[0] : undefined);
  const out: ReadingValues = { revision: NAMED_REVISION };
  if (policy?.quota !== undefined) out.quota = policy.quota;
  if (policy?.windowS !== undefined) out.windowS = policy.windowS;
  if (policy?.quotaUnit !== undefined) out.quotaUnit = policy.quotaUnit;
  if (binding?.remaining !== undefined) out.remaining = binding.remaining;
  if (binding?.resetS !== undefined) out.resetS = binding.resetS;
  if (policies.length > 0) out.policies = policies.map(toQuotaPolicy);
  const fields: Record<string, string> = {};
  if (policyValue !== undefined) fields['RateLimit-Policy'] = policyValue;
  if (limitValue !== undefined) fields.RateLimit = limitValue;
  out.fields = fields;
  return out;
}

function toQuotaPolicy(p: IetfPolicy): QuotaPolicy {
  return { name: p.name, ...(p.quota !== undefined ? { quota: p.quota } : {}), ...(p.windowS !== undefined ? { windowS: p.windowS } : {}), ...(p.quotaUnit !== undefined ? { quotaUnit: p.quotaUnit } : {}) };
}

function itemName(entry: SfItem, where: string, findings: string[], notes: string[]): string {
  const item = entry.item;
  if (item.kind === 'string') return item.value;
  if (item.kind === 'token') {
    notes.push(`${where}: the policy name ${item.value} is a Token, which draft -11 allows; drafts -08 to -10 require a String ("${item.value}")`);
    return item.value;
  }
  if (item.kind === 'integer') {
    findings.push(`${where}: ${item.value} is an unnamed quota policy of drafts -04 to -07; drafts -08 on name each policy ("name";q=${item.value})`);
    return '';
  }
  findings.push(`${where}: an item must be a policy name String, got ${describe(item.kind)}`);
  return '';
}
