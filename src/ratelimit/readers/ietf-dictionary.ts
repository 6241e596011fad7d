/**
 * draft-ietf-httpapi-ratelimit-headers-07: one `RateLimit` Dictionary (`limit=100, remaining=50, reset=5`; limit
 * and reset REQUIRED, remaining OPTIONAL) beside an informative `RateLimit-Policy` List of unnamed quota policies
 * (`100;w=60`). The limit is the "expiring limit", the service limit closest to being reached; its window is the
 * policy with that quota. express-rate-limit's `standardHeaders: 'draft-7'`.
 */
import { parseDictionary, type SfItem } from '../structured-fields.ts';
import { describeValue, header, items, quotaItemPolicies, windowForLimit, type HeaderBag, type ReadContext, type ReadingValues } from './common.ts';

export const DICTIONARY_REVISION = 'draft-ietf-httpapi-ratelimit-headers-07 (RateLimit: limit=, remaining=, reset= and RateLimit-Policy: quota;w=)';

/** The keys draft -07 defines for the RateLimit Dictionary. */
export const DICTIONARY_KEYS = ['limit', 'remaining', 'reset'] as const;

export function readIetfDictionary(headers: HeaderBag, ctx: ReadContext): ReadingValues {
  const { findings, notes } = ctx;
  const out: ReadingValues = { revision: DICTIONARY_REVISION };
  const fields: Record<string, string> = {};
  const value = header(headers, 'ratelimit');
  if (value === undefined) findings.push('RateLimit is missing');
  else {
    fields.RateLimit = value;
    let dict: Map<string, SfItem> | undefined;
    try {
      dict = parseDictionary(value);
    } catch (err) {
      findings.push(`RateLimit is not a valid Structured Field Dictionary (RFC 9651): ${(err as Error).message}`);
    }
    if (dict) {
      const limit = member(dict, 'limit', findings, true);
      if (limit !== undefined) out.quota = limit;
      const remaining = member(dict, 'remaining', findings, false);
      if (remaining !== undefined) out.remaining = remaining;
      const reset = member(dict, 'reset', findings, true);
      if (reset !== undefined) out.resetS = reset;
    }
  }
  const policyValue = header(headers, 'ratelimit-policy');
  if (policyValue !== undefined) {
    fields['RateLimit-Policy'] = policyValue;
    const policies = quotaItemPolicies(items(policyValue, 'RateLimit-Policy', findings), 'RateLimit-Policy', findings);
    if (policies.length > 0) out.policies = policies;
    const policy = windowForLimit(out.quota, policies, 'RateLimit-Policy', notes);
    if (policy?.windowS !== undefined) out.windowS = policy.windowS;
  }
  out.fields = fields;
  return out;
}

function member(dict: Map<string, SfItem>, key: string, findings: string[], required: boolean): number | undefined {
  const entry = dict.get(key);
  if (entry === undefined) {
    if (required) findings.push(`RateLimit: the ${key} key is missing (REQUIRED in draft -07)`);
    return undefined;
  }
  if (entry.item.kind !== 'integer' || entry.item.value < 0) {
    findings.push(`RateLimit: ${key} must be a non-negative Integer, got ${describeValue(entry.item)}`);
    return undefined;
  }
  return entry.item.value;
}

/** True when a field parses as a Dictionary holding at least one of draft -07's keys with an Integer value. */
export function isDraft07Dictionary(value: string): boolean {
  // Read on every probe response: a failed parse throws, and throwing costs more than the parse, so only a field
  // that has a `key=` member at all is parsed.
  if (!/(?:^|,)\s*(?:limit|remaining|reset)\s*=/.test(value)) return false;
  try {
    const dict = parseDictionary(value);
    // An Integer, not just the key: `RateLimit: limit;r=1` is a -11 item whose policy is named by the Token limit.
    return DICTIONARY_KEYS.some((key) => dict.get(key)?.item.kind === 'integer');
  } catch {
    return false;
  }
}
