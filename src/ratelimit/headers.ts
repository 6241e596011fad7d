/**
 * Reading the rate-limit headers a target sends, in every published form (the readers are in ./readers/):
 *
 * | format (`api.rateLimitHeaders`) | what it reads | sent by, e.g. |
 * |---|---|---|
 * | `ietf-draft-09` | draft-ietf-httpapi-ratelimit-headers-08 to -11: `RateLimit-Policy: "name";q=100;w=60`, `RateLimit: "name";r=50;t=30` | express-rate-limit `draft-8`, the reference target |
 * | `ietf-draft-07` | draft -07: `RateLimit: limit=100, remaining=50, reset=30` and `RateLimit-Policy: 100;w=60` | express-rate-limit `draft-7` |
 * | `ietf-draft-06` | drafts -00 to -06: `RateLimit-Limit` (with quota policies `100, 100;w=60` up to -03), `-Remaining`, `-Reset`, and `RateLimit-Policy: 100;w=60` (-04 to -06) | express-rate-limit `draft-6`, @fastify/rate-limit `enableDraftSpec` |
 * | `x-ratelimit` | `X-RateLimit-Limit/-Remaining/-Reset` (or `X-Rate-Limit-*`), `X-RateLimit-Used`, reset as delta, epoch seconds, epoch ms or HTTP-date, a `RateLimit-Policy` beside them for the window | @fastify/rate-limit, express-rate-limit `legacyHeaders`, GitHub |
 *
 * `auto` reads the format the response uses, told apart by structure, not only by name (`RateLimit-Policy: 20;w=5`
 * is -04 to -07, `"p";q=20;w=5` is -08 on; `RateLimit: limit=…` is a -07 Dictionary, `RateLimit: "p";r=…` a -08
 * List). When a response carries several families (express-rate-limit sends its standard headers and the
 * X-RateLimit-* ones by default), `auto` reads the newest IETF form present; `readAllRateLimit` reads each.
 * Retry-After is read by src/http/retry-after.ts.
 */
import type { RateLimitHeaderStyle } from '../config/types.ts';
import { contextFor, header, readReset, tryList, type DetectedStyle, type HeaderBag, type HeaderFormat, type RateLimitReading, type ReadingValues } from './readers/common.ts';
import { isDraft07Dictionary, readIetfDictionary } from './readers/ietf-dictionary.ts';
import { readIetfFields } from './readers/ietf-fields.ts';
import { readIetfNamed } from './readers/ietf-named.ts';
import { readXRateLimitValues, xPrefix } from './readers/x-ratelimit.ts';

export type { DetectedStyle, HeaderBag, HeaderFormat, QuotaPolicy, RateLimitReading } from './readers/common.ts';
export { parsePolicyHeader, parseRateLimitHeader, type IetfLimit, type IetfPolicy } from './readers/ietf-named.ts';

/** The formats in the order `auto` prefers them: the newest IETF revision first, the vendor convention last. */
export const HEADER_FORMATS: readonly HeaderFormat[] = ['ietf-draft-09', 'ietf-draft-07', 'ietf-draft-06', 'x-ratelimit'];

/**
 * Every header format the response uses, newest first (empty: none). Structure decides: a `RateLimit` field
 * that is a Dictionary with limit/remaining/reset is -07, a List of named items -08 on (an unparseable one is
 * read as -08 on, whose reader reports why); a `RateLimit-Policy` of Integer items belongs with the older fields
 * it accompanies.
 */
export function detectFormats(headers: HeaderBag): HeaderFormat[] {
  const rateLimit = header(headers, 'ratelimit');
  const policy = header(headers, 'ratelimit-policy');
  // The policy's form matters only without a RateLimit field; detection runs on every probe response, so the
  // policy is parsed only then.
  const policyList = policy === undefined || rateLimit !== undefined ? undefined : tryList(policy);
  const policyQuotaItems = policyList !== undefined && policyList.length > 0 && policyList.every((e) => e.item.kind === 'integer');
  const fields = ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'].some((n) => header(headers, n) !== undefined);
  const x = xPrefix(headers) !== undefined;
  const out: HeaderFormat[] = [];
  const dictionary = rateLimit !== undefined && isDraft07Dictionary(rateLimit);
  if (rateLimit !== undefined && !dictionary) out.push('ietf-draft-09');
  // A RateLimit-Policy alone is -08 on; beside older fields it only gives them their window (readers/policy.ts).
  else if (rateLimit === undefined && policy !== undefined && !policyQuotaItems && !(fields || x)) out.push('ietf-draft-09');
  if (dictionary) out.push('ietf-draft-07');
  // A lone RateLimit-Policy of quota items (no RateLimit, no other field) is read with the -04 to -06 fields,
  // whose reader then says what is missing.
  if (fields || (policyQuotaItems && rateLimit === undefined && !x)) out.push('ietf-draft-06');
  if (x) out.push('x-ratelimit');
  return out;
}

/** Which format the headers use ('none' when no rate-limit header is present): the one `auto` reads. */
export function detectStyle(headers: HeaderBag): DetectedStyle {
  return detectFormats(headers)[0] ?? 'none';
}

/**
 * Reads the rate-limit state a response announces, in the configured format (`api.rateLimitHeaders`); 'auto'
 * reads the one `detectStyle` names. Findings say what is missing, malformed or contradictory, notes what was
 * assumed; consistency checks that hold for every format (remaining ≤ quota, reset ≤ window) are applied here.
 */
export function readRateLimit(headers: HeaderBag, style: RateLimitHeaderStyle, nowMs: number): RateLimitReading {
  const used: DetectedStyle = style === 'auto' ? detectStyle(headers) : style;
  return readFormat(headers, used, nowMs);
}

/** One reading per header family the response carries, newest first (what `harness probe ratelimit` compares). */
export function readAllRateLimit(headers: HeaderBag, nowMs: number): RateLimitReading[] {
  return detectFormats(headers).map((format) => readFormat(headers, format, nowMs));
}

export function readFormat(headers: HeaderBag, style: DetectedStyle, nowMs: number): RateLimitReading {
  if (style === 'none') return { style, findings: [], notes: [] };
  const ctx = contextFor(headers, nowMs);
  let values: ReadingValues;
  if (style === 'ietf-draft-09') values = readIetfNamed(headers, ctx);
  else if (style === 'ietf-draft-07') values = readIetfDictionary(headers, ctx);
  else if (style === 'ietf-draft-06') values = readIetfFields(headers, ctx);
  else values = readXRateLimitValues(headers, ctx);
  const { findings, notes } = ctx;
  if (values.quota !== undefined && values.remaining !== undefined && values.remaining > values.quota) {
    findings.push(`remaining (${values.remaining}) exceeds the quota (${values.quota})`);
  }
  // An epoch reset is rounded up to whole seconds by the target and read against a clock: one second more is its
  // resolution, not a contradiction.
  const resolutionS = values.resetForm === undefined ? 0 : 1;
  if (values.windowS !== undefined && values.resetS !== undefined && values.resetS > values.windowS + resolutionS) {
    findings.push(`reset (${values.resetS} s) is longer than the window (${values.windowS} s)`);
  }
  return { style, ...values, findings, notes };
}

/** Delta seconds, or epoch seconds / milliseconds turned into seconds from `nowMs` (never negative). */
export function resetSeconds(value: number, nowMs: number, findings: string[]): number {
  const ctx = { nowMs, findings, notes: [] as string[] };
  return readReset(String(value), 'X-RateLimit-Reset', ctx, false)?.resetS ?? value;
}
