/**
 * Readers for the rate-limit header styles a target may use. Nothing here throws on a target's value: a
 * malformed or contradictory header becomes a finding (a sentence for a report) and the reading keeps what it
 * could understand.
 *
 * - `ietf-draft-09`: draft-ietf-httpapi-ratelimit-headers-09 and later. `RateLimit-Policy: "default";q=100;w=1`
 *   and `RateLimit: "default";r=42;t=1`, both RFC 9651 Lists, possibly naming several policies (params q, qu, w,
 *   pk on a policy; r, t, pk on a RateLimit item).
 * - `ietf-draft-06`: drafts up to -06. `RateLimit-Limit: 100` (optionally followed by quota policies such as
 *   `100;w=60`), `RateLimit-Remaining: 42`, `RateLimit-Reset: 7` (delta seconds).
 * - `x-ratelimit`: `X-RateLimit-Limit`, `-Remaining`, `-Reset`; the reset is delta seconds or Unix epoch seconds,
 *   told apart by magnitude relative to now.
 * Retry-After is read by src/http/retry-after.ts.
 */
import type { RateLimitHeaderStyle } from '../config/types.ts';
import { parseList, type BareItem, type SfItem } from './structured-fields.ts';

/** Response headers with lower-case names (as HttpResponse.headers), or any case: lookups try both. */
export type HeaderBag = Readonly<Record<string, string | undefined>>;

export type DetectedStyle = Exclude<RateLimitHeaderStyle, 'auto'>;

export interface RateLimitReading {
  /** The style read: the configured one, or for 'auto' the detected one ('none' when no header is present). */
  style: DetectedStyle;
  /** Requests allowed per window (of the binding policy when there are several). */
  quota?: number;
  windowS?: number;
  remaining?: number;
  /** Seconds until the quota frees up. */
  resetS?: number;
  findings: string[];
}

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

/** `RateLimit-Policy` of draft-09+: one entry per policy item. */
export function parsePolicyHeader(value: string, findings: string[]): IetfPolicy[] {
  return items(value, 'RateLimit-Policy', findings).map((entry) => {
    const name = itemName(entry, 'RateLimit-Policy', findings);
    const policy: IetfPolicy = { name };
    const q = intParam(entry, 'q', `RateLimit-Policy "${name}"`, findings, true);
    if (q !== undefined) policy.quota = q;
    const w = intParam(entry, 'w', `RateLimit-Policy "${name}"`, findings, false);
    if (w !== undefined) {
      if (w === 0) findings.push(`RateLimit-Policy "${name}": w must be a positive integer, got 0`);
      else policy.windowS = w;
    }
    const qu = entry.params.get('qu');
    if (qu) {
      if (qu.kind === 'string') policy.quotaUnit = qu.value;
      else findings.push(`RateLimit-Policy "${name}": qu must be a String`);
    }
    const pk = bytesParam(entry, `RateLimit-Policy "${name}"`, findings);
    if (pk) policy.partitionKey = pk;
    return policy;
  });
}

/** `RateLimit` of draft-09+: one entry per item (remaining r, reset t). */
export function parseRateLimitHeader(value: string, findings: string[]): IetfLimit[] {
  return items(value, 'RateLimit', findings).map((entry) => {
    const name = itemName(entry, 'RateLimit', findings);
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

/** Reads the draft-09+ pair; with several policies the binding one (fewest remaining) is reported. */
export function readIetfDraft09(headers: HeaderBag, findings: string[]): Omit<RateLimitReading, 'style' | 'findings'> {
  const policyValue = header(headers, 'ratelimit-policy');
  const limitValue = header(headers, 'ratelimit');
  const policies = policyValue === undefined ? [] : parsePolicyHeader(policyValue, findings);
  const limits = limitValue === undefined ? [] : parseRateLimitHeader(limitValue, findings);
  if (policyValue === undefined) findings.push('RateLimit-Policy is missing');
  if (limitValue === undefined) findings.push('RateLimit is missing');
  for (const limit of limits) {
    if (policyValue !== undefined && !policies.some((p) => p.name === limit.name)) {
      findings.push(`RateLimit names policy "${limit.name}", which RateLimit-Policy does not announce`);
    }
  }
  const known = limits.filter((l) => l.remaining !== undefined);
  const binding = known.sort((a, b) => a.remaining! - b.remaining!)[0] ?? limits[0];
  // A RateLimit item that names no announced policy was reported above; with one policy, that one is meant.
  const policy = policies.find((p) => p.name === binding?.name) ?? (!binding || policies.length === 1 ? policies[0] : undefined);
  const out: Omit<RateLimitReading, 'style' | 'findings'> = {};
  if (policy?.quota !== undefined) out.quota = policy.quota;
  if (policy?.windowS !== undefined) out.windowS = policy.windowS;
  if (binding?.remaining !== undefined) out.remaining = binding.remaining;
  if (binding?.resetS !== undefined) out.resetS = binding.resetS;
  return out;
}

/** Drafts ≤ 06: RateLimit-Limit (with optional quota policies), -Remaining, -Reset (delta seconds). */
export function readIetfDraft06(headers: HeaderBag, findings: string[]): Omit<RateLimitReading, 'style' | 'findings'> {
  const out: Omit<RateLimitReading, 'style' | 'findings'> = {};
  const limitValue = header(headers, 'ratelimit-limit');
  if (limitValue === undefined) findings.push('RateLimit-Limit is missing');
  else {
    const entries = items(limitValue, 'RateLimit-Limit', findings);
    const first = entries[0];
    if (first && first.item.kind === 'integer' && first.item.value >= 0) out.quota = first.item.value;
    else if (entries.length > 0) findings.push(`RateLimit-Limit must start with a non-negative integer, got ${JSON.stringify(limitValue)}`);
    // The quota policies that follow (`100;w=60`) name the window of the quota that equals the limit.
    const policy = entries.slice(1).find((e) => e.item.kind === 'integer' && e.item.value === out.quota && e.params.has('w'));
    const w = policy?.params.get('w');
    if (w?.kind === 'integer' && w.value > 0) out.windowS = w.value;
  }
  const remaining = integerHeader(headers, 'ratelimit-remaining', 'RateLimit-Remaining', findings);
  if (remaining !== undefined) out.remaining = remaining;
  const reset = integerHeader(headers, 'ratelimit-reset', 'RateLimit-Reset', findings);
  if (reset !== undefined) out.resetS = reset;
  return out;
}

/** Reset values above this share of "now" in epoch seconds are read as epoch times, below as delta seconds. */
const EPOCH_SHARE = 0.5;

/** X-RateLimit-Limit / -Remaining / -Reset. The reset may be delta seconds or epoch seconds (or epoch ms). */
export function readXRateLimit(headers: HeaderBag, nowMs: number, findings: string[]): Omit<RateLimitReading, 'style' | 'findings'> {
  const out: Omit<RateLimitReading, 'style' | 'findings'> = {};
  const limitValue = header(headers, 'x-ratelimit-limit');
  if (limitValue === undefined) findings.push('X-RateLimit-Limit is missing');
  else {
    // Some services append a policy (`100, 100;w=60`); the leading integer is the limit.
    const match = /^\s*(\d+)\s*(?:[,;]|$)/.exec(limitValue);
    if (match) out.quota = Number(match[1]);
    else findings.push(`X-RateLimit-Limit must be a non-negative integer, got ${JSON.stringify(limitValue)}`);
    const w = /;\s*w=(\d+)/.exec(limitValue);
    if (w && Number(w[1]) > 0) out.windowS = Number(w[1]);
  }
  const remaining = integerHeader(headers, 'x-ratelimit-remaining', 'X-RateLimit-Remaining', findings);
  if (remaining !== undefined) out.remaining = remaining;
  // X-RateLimit-* is a convention, not a standard: many services send only Limit and Remaining. A missing Reset is
  // not a finding (a malformed one is); the window can then come from api.rateLimitPolicy.
  if (header(headers, 'x-ratelimit-reset') !== undefined) {
    const reset = integerHeader(headers, 'x-ratelimit-reset', 'X-RateLimit-Reset', findings);
    if (reset !== undefined) out.resetS = resetSeconds(reset, nowMs, findings);
  }
  return out;
}

/** Delta seconds, or epoch seconds / milliseconds turned into seconds from now (never negative). */
export function resetSeconds(value: number, nowMs: number, findings: string[]): number {
  const nowS = nowMs / 1000;
  if (value > nowMs * EPOCH_SHARE) return epochDelta(value / 1000, nowS, 'X-RateLimit-Reset (epoch milliseconds)', findings);
  if (value > nowS * EPOCH_SHARE) return epochDelta(value, nowS, 'X-RateLimit-Reset (epoch seconds)', findings);
  return value;
}

function epochDelta(atS: number, nowS: number, what: string, findings: string[]): number {
  const delta = Math.ceil(atS - nowS);
  if (delta < 0) {
    findings.push(`${what} lies ${-delta} s in the past`);
    return 0;
  }
  return delta;
}

/** Which style the headers use; 'none' when no rate-limit header is present. */
export function detectStyle(headers: HeaderBag): DetectedStyle {
  if (header(headers, 'ratelimit-policy') !== undefined || header(headers, 'ratelimit') !== undefined) return 'ietf-draft-09';
  if (['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'].some((n) => header(headers, n) !== undefined)) return 'ietf-draft-06';
  if (['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'].some((n) => header(headers, n) !== undefined)) return 'x-ratelimit';
  return 'none';
}

/**
 * Reads the rate-limit state a response announces, in the configured style (`api.rateLimitHeaders`); 'auto'
 * detects it. Findings say what is missing, malformed or contradictory; consistency checks that hold for
 * every style (remaining ≤ quota) are applied here.
 */
export function readRateLimit(headers: HeaderBag, style: RateLimitHeaderStyle, nowMs: number): RateLimitReading {
  const findings: string[] = [];
  const used: DetectedStyle = style === 'auto' ? detectStyle(headers) : style;
  let values: Omit<RateLimitReading, 'style' | 'findings'> = {};
  if (used === 'ietf-draft-09') values = readIetfDraft09(headers, findings);
  else if (used === 'ietf-draft-06') values = readIetfDraft06(headers, findings);
  else if (used === 'x-ratelimit') values = readXRateLimit(headers, nowMs, findings);
  if (values.quota !== undefined && values.remaining !== undefined && values.remaining > values.quota) {
    findings.push(`remaining (${values.remaining}) exceeds the quota (${values.quota})`);
  }
  if (values.windowS !== undefined && values.resetS !== undefined && values.resetS > values.windowS) {
    findings.push(`reset (${values.resetS} s) is longer than the window (${values.windowS} s)`);
  }
  return { style: used, ...values, findings };
}

function header(headers: HeaderBag, lowerName: string): string | undefined {
  const direct = headers[lowerName];
  if (direct !== undefined) return direct;
  for (const [name, value] of Object.entries(headers)) if (name.toLowerCase() === lowerName) return value;
  return undefined;
}

function items(value: string, name: string, findings: string[]): SfItem[] {
  try {
    const list = parseList(value);
    if (list.length === 0) findings.push(`${name} is empty`);
    return list;
  } catch (err) {
    findings.push(`${name} is not a valid Structured Field List (RFC 9651): ${(err as Error).message}`);
    return [];
  }
}

function itemName(entry: SfItem, where: string, findings: string[]): string {
  const item = entry.item;
  if (item.kind === 'string') return item.value;
  if (item.kind === 'token') {
    findings.push(`${where}: the policy name ${item.value} should be a String ("${item.value}"), not a Token`);
    return item.value;
  }
  findings.push(`${where}: an item must be a policy name String, got ${describe(item.kind)}`);
  return '';
}

function intParam(entry: SfItem, key: string, where: string, findings: string[], required: boolean): number | undefined {
  const param = entry.params.get(key);
  if (param === undefined) {
    if (required) findings.push(`${where}: parameter ${key} is missing`);
    return undefined;
  }
  if (param.kind !== 'integer' || param.value < 0) {
    findings.push(`${where}: ${key} must be a non-negative Integer, got ${describeValue(param)}`);
    return undefined;
  }
  return param.value;
}

function bytesParam(entry: SfItem, where: string, findings: string[]): Uint8Array | undefined {
  const pk = entry.params.get('pk');
  if (pk === undefined) return undefined;
  if (pk.kind !== 'bytes') {
    findings.push(`${where}: pk must be a Byte Sequence (:base64:), got ${describeValue(pk)}`);
    return undefined;
  }
  return pk.value;
}

function integerHeader(headers: HeaderBag, lowerName: string, name: string, findings: string[]): number | undefined {
  const value = header(headers, lowerName);
  if (value === undefined) {
    findings.push(`${name} is missing`);
    return undefined;
  }
  if (!/^\s*\d+\s*$/.test(value)) {
    findings.push(`${name} must be a non-negative integer, got ${JSON.stringify(value)}`);
    return undefined;
  }
  return Number(value);
}

function describe(kind: string): string {
  return kind === 'inner' ? 'an inner list' : `a ${kind}`;
}

function describeValue(item: BareItem): string {
  return item.kind === 'bytes' ? 'a byte sequence' : `${item.kind} ${JSON.stringify(item.value)}`;
}
