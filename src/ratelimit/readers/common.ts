/**
 * What every rate-limit header reader shares: the reading's shape, header lookup, and the parsing of the parts
 * several formats have in common (quota policies, integer fields, reset values). Nothing here throws on a
 * target's value: a malformed or contradictory header becomes a finding (a sentence for a report), and an
 * assumption the reader had to make (how a reset was read) becomes a note.
 */
import type { RateLimitHeaderStyle } from '../../config/types.ts';
import { parseList, type BareItem, type SfItem } from '../structured-fields.ts';

/** Response headers with lower-case names (as HttpResponse.headers), or any case: lookups try both. */
export type HeaderBag = Readonly<Record<string, string | undefined>>;

export type DetectedStyle = Exclude<RateLimitHeaderStyle, 'auto'>;
/** A header format a reader exists for (every detected style but 'none'). */
export type HeaderFormat = Exclude<DetectedStyle, 'none'>;

/** One quota policy a response announces (RateLimit-Policy, or the quota policies inside RateLimit-Limit). */
export interface QuotaPolicy {
  /** The policy's name (drafts -08 on); absent for the unnamed quota policies of drafts -00 to -07. */
  name?: string;
  quota?: number;
  windowS?: number;
  /** What the quota counts (draft -08 on `qu`); absent means requests. */
  quotaUnit?: string;
}

export interface RateLimitReading {
  /** The format read: the configured one, or for 'auto' the detected one ('none' when no header is present). */
  style: DetectedStyle;
  /** Which published revisions (or vendor convention) the headers follow, in words. */
  revision?: string;
  /** Requests allowed per window (the limit of the binding policy when there are several). */
  quota?: number;
  windowS?: number;
  remaining?: number;
  /** Seconds until the quota frees up. */
  resetS?: number;
  /** How the reset was written, when it was not delay-seconds (X-RateLimit-Reset as an epoch time, say). */
  resetForm?: Exclude<ResetForm, 'delta-seconds'>;
  /** Quota units used in the window (X-RateLimit-Used). */
  used?: number;
  /** What the quota counts, when the headers say (draft -08 on `qu`); absent means requests. */
  quotaUnit?: string;
  /** Every quota policy the headers announce. */
  policies?: QuotaPolicy[];
  /** The header fields this reading was read from, as sent (names spelled as the drafts spell them). */
  fields?: Record<string, string>;
  /** What is missing, malformed or contradictory. */
  findings: string[];
  /** Assumptions the reader made (e.g. that a reset is an epoch time, and against which clock it was read). */
  notes: string[];
}

export type ReadingValues = Omit<RateLimitReading, 'style' | 'findings' | 'notes'>;

export interface ReadContext {
  /** The local clock when the response arrived, ms since the epoch. */
  nowMs: number;
  /** The response's own `Date`, ms since the epoch, when it sent a valid one. */
  dateMs?: number;
  findings: string[];
  notes: string[];
}

/**
 * Each bag's lower-cased view, built once (a response's headers do not change once received): detection looks up
 * a dozen absent names on every probe response.
 */
const LOWER = new WeakMap<HeaderBag, HeaderBag>();

export function header(headers: HeaderBag, lowerName: string): string | undefined {
  const direct = headers[lowerName];
  if (direct !== undefined) return direct;
  let lower = LOWER.get(headers);
  if (!lower) {
    const names = Object.keys(headers);
    lower = names.every((n) => n === n.toLowerCase()) ? headers : Object.fromEntries(names.map((n) => [n.toLowerCase(), headers[n]]));
    LOWER.set(headers, lower);
  }
  return lower[lowerName];
}

export function contextFor(headers: HeaderBag, nowMs: number): ReadContext {
  const date = header(headers, 'date');
  const dateMs = date === undefined ? NaN : Date.parse(date);
  return { nowMs, ...(Number.isFinite(dateMs) ? { dateMs } : {}), findings: [], notes: [] };
}

export function items(value: string, name: string, findings: string[]): SfItem[] {
  try {
    const list = parseList(value);
    if (list.length === 0) findings.push(`${name} is empty`);
    return list;
  } catch (err) {
    findings.push(`${name} is not a valid Structured Field List (RFC 9651): ${(err as Error).message}`);
    return [];
  }
}

/** A List quietly parsed, for format detection: undefined when it does not parse. */
export function tryList(value: string): SfItem[] | undefined {
  try {
    return parseList(value);
  } catch {
    return undefined;
  }
}

export function isName(item: SfItem['item']): item is { kind: 'string' | 'token'; value: string } {
  return item.kind === 'string' || item.kind === 'token';
}

/**
 * The quota policies of drafts -00 to -07: an Integer (the quota) with a `w` parameter (the window), other
 * parameters being comments (`100;w=60;comment="fixed window"`). Used for RateLimit-Policy (-04 to -07) and for
 * the policies that follow the limit inside RateLimit-Limit (-00 to -03).
 */
export function quotaItemPolicies(entries: SfItem[], where: string, findings: string[]): QuotaPolicy[] {
  const out: QuotaPolicy[] = [];
  for (const entry of entries) {
    if (entry.item.kind !== 'integer' || entry.item.value < 0) {
      if (isName(entry.item)) findings.push(`${where}: ${JSON.stringify(entry.item.value)} is a named policy (draft -08 on); drafts -04 to -07 list quotas such as 100;w=60`);
      else findings.push(`${where}: a quota policy must be a non-negative Integer, got ${describeValue(entry.item)}`);
      continue;
    }
    const policy: QuotaPolicy = { quota: entry.item.value };
    const w = entry.params.get('w');
    if (w === undefined) findings.push(`${where}: the quota policy ${entry.item.value} has no w (window) parameter`);
    else if (w.kind !== 'integer' || w.value <= 0) findings.push(`${where}: w must be a positive Integer, got ${describeValue(w)}`);
    else policy.windowS = w.value;
    out.push(policy);
  }
  const quotas = out.map((p) => p.quota);
  const repeated = quotas.filter((q, i) => quotas.indexOf(q) !== i);
  // Drafts -06 and -07: "Two quota policies MUST NOT be associated with the same quota units value."
  if (repeated.length > 0) findings.push(`${where}: two quota policies have the same quota (${[...new Set(repeated)].join(', ')}), which the drafts forbid`);
  return out;
}

/**
 * The window of the expiring limit (drafts -00 to -07): the quota policy whose quota equals the limit. The limit
 * may legitimately be lower than every policy (a server pushing back), so no match is a note, not a finding.
 */
export function windowForLimit(limit: number | undefined, policies: QuotaPolicy[], where: string, notes: string[]): QuotaPolicy | undefined {
  if (limit === undefined || policies.length === 0) return undefined;
  const match = policies.find((p) => p.quota === limit);
  if (!match) notes.push(`no quota policy in ${where} has the limit's quota ${limit}, so the headers state no window for it`);
  return match;
}

/** An Integer field (`RateLimit-Remaining: 50`); parameters are ignored, as drafts -02 to -06 require. */
export function integerField(headers: HeaderBag, lowerName: string, name: string, findings: string[], required: boolean): number | undefined {
  const value = header(headers, lowerName);
  if (value === undefined) {
    if (required) findings.push(`${name} is missing`);
    return undefined;
  }
  const match = /^\s*(\d+)\s*(?:;.*)?$/.exec(value);
  if (!match) {
    findings.push(`${name} must be a non-negative integer, got ${JSON.stringify(value)}`);
    return undefined;
  }
  return Number(match[1]);
}

/** Reset values above this share of "now" (in epoch seconds, or ms) are read as epoch times, below as delta seconds. */
const EPOCH_SHARE = 0.5;
/** Beyond this distance between the response's Date and the local clock, epoch resets are read against the Date. */
const SKEW_MS = 2000;

export type ResetForm = 'delta-seconds' | 'epoch-seconds' | 'epoch-milliseconds' | 'http-date';

/**
 * A reset value as seconds from the response: delay-seconds, Unix epoch seconds, epoch milliseconds or an
 * HTTP-date, told apart by magnitude against the response's `Date` (the target's own clock, so no clock skew
 * between harness and target enters), else against the local clock. Never negative: a reset in the past is a
 * finding and reads 0. `expectDelta` (the IETF fields, whose reset is always delay-seconds) makes an epoch
 * value a finding as well as a conversion; otherwise (X-RateLimit-*) the form assumed is a note.
 */
export function readReset(raw: string, name: string, ctx: ReadContext, expectDelta: boolean): { resetS: number; form: ResetForm } | undefined {
  const text = raw.trim();
  // Magnitude is judged against the target's own clock when it sends one. The distance to an epoch time is taken
  // from the local clock (millisecond resolution) unless the response's Date (whole seconds) is more than
  // SKEW_MS away from it: then the clocks disagree by more than Date's resolution, and the target's clock wins.
  const magnitudeMs = ctx.dateMs ?? ctx.nowMs;
  const skewed = ctx.dateMs !== undefined && Math.abs(ctx.nowMs - ctx.dateMs) > SKEW_MS;
  const refMs = skewed ? ctx.dateMs! : ctx.nowMs;
  const clock = skewed
    ? `the response's Date (${Math.round((ctx.dateMs! - ctx.nowMs) / 1000)} s off the local clock)`
    : ctx.dateMs !== undefined ? "the local clock (the response's Date agrees within 2 s)" : 'the local clock (the response has no Date)';
  let form: ResetForm;
  let deltaS: number;
  if (/^\d+(?:\.\d+)?$/.test(text)) {
    const value = Number(text);
    if (value > magnitudeMs * EPOCH_SHARE) {
      form = 'epoch-milliseconds';
      deltaS = (value - refMs) / 1000;
    } else if (value > (magnitudeMs / 1000) * EPOCH_SHARE) {
      form = 'epoch-seconds';
      deltaS = value - refMs / 1000;
    } else {
      if (!expectDelta) ctx.notes.push(`${name} ${text} read as delta seconds (far below an epoch time)`);
      else if (!Number.isInteger(value)) ctx.findings.push(`${name} must be a whole number of seconds (delay-seconds), got ${text}`);
      return { resetS: value, form: 'delta-seconds' };
    }
  } else if (/[A-Za-z]/.test(text) && Number.isFinite(Date.parse(text))) {
    form = 'http-date';
    deltaS = (Date.parse(text) - refMs) / 1000;
  } else {
    ctx.findings.push(`${name} must be a number of seconds or a time, got ${JSON.stringify(raw)}`);
    return undefined;
  }
  const what = form === 'http-date' ? 'an HTTP-date' : form === 'epoch-seconds' ? 'epoch seconds' : 'epoch milliseconds';
  // Whole seconds up, like every delay-seconds value: the quota is not back before then.
  const resetS = Math.max(0, Math.ceil(deltaS - 1e-9));
  if (expectDelta) ctx.findings.push(`${name} ${text} is ${what}, but the drafts define it as delay-seconds; read as ${resetS} s after ${clock}`);
  else ctx.notes.push(`${name} ${text} read as ${what} (${form === 'http-date' ? 'a date' : 'an epoch-sized number'}): ${resetS} s after ${clock}`);
  if (deltaS < -1) ctx.findings.push(`${name} (${what}) lies ${Math.round(-deltaS)} s in the past of ${clock}`);
  return { resetS, form };
}

export function intParam(entry: SfItem, key: string, where: string, findings: string[], required: boolean): number | undefined {
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

export function bytesParam(entry: SfItem, where: string, findings: string[]): Uint8Array | undefined {
  const pk = entry.params.get('pk');
  if (pk === undefined) return undefined;
  if (pk.kind !== 'bytes') {
    findings.push(`${where}: pk must be a Byte Sequence (:base64:), got ${describeValue(pk)}`);
    return undefined;
  }
  return pk.value;
}

export function describe(kind: string): string {
  return kind === 'inner' ? 'an inner list' : kind === 'integer' ? 'an integer' : `a ${kind}`;
}

export function describeValue(item: BareItem | SfItem['item']): string {
  if (item.kind === 'inner') return 'an inner list';
  return item.kind === 'bytes' ? 'a byte sequence' : `${item.kind} ${JSON.stringify(item.value)}`;
}
