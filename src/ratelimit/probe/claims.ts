/**
 * What a response's rate-limit headers claim, in report.json's vocabulary: the claimed policy (the format `auto`
 * or the config picks, completed from api.rateLimitPolicy), and, for every header family a target sends (express-
 * rate-limit sends its IETF headers and X-RateLimit-* at once), what that family claims about limit, window,
 * remaining and reset, set against what the probe measured.
 */
import type { RateLimitHeaderStyle } from '../../config/types.ts';
import { detectFormats, readFormat, readRateLimit, type HeaderFormat, type RateLimitReading } from '../headers.ts';
import { primarySamples } from './runs.ts';
import type { ClaimContradiction, ClaimedPolicy, HeaderClaimComparison, ProbeResult, Sample } from './types.ts';

export function claimedPolicy(headers: Record<string, string>, style: RateLimitHeaderStyle, nowMs: number): ClaimedPolicy {
  const reading = readRateLimit(headers, style, nowMs);
  const headerStyle = reading.style === 'none' ? 'none' : reading.style === 'x-ratelimit' ? 'x-ratelimit' : 'ietf';
  const raw = policyField(reading);
  return {
    headerStyle,
    ...(reading.style !== 'none' ? { format: reading.style } : {}),
    // qu (draft -08 on): what the quota counts; absent means requests.
    ...(reading.quotaUnit !== undefined ? { quotaUnit: reading.quotaUnit } : {}),
    ...(reading.quota !== undefined ? { quota: reading.quota } : {}),
    ...(reading.windowS !== undefined ? { windowS: reading.windowS } : {}),
    ...(raw !== undefined ? { raw } : {}),
    findings: reading.findings,
  };
}

/** The field that states the policy, as sent: RateLimit-Policy where there is one, else the limit's own field. */
function policyField(reading: RateLimitReading): string | undefined {
  const f = reading.fields ?? {};
  return f['RateLimit-Policy'] ?? f['RateLimit-Limit'] ?? f.RateLimit ?? f['X-RateLimit-Limit'] ?? f['X-Rate-Limit-Limit'];
}

/** What one header family claimed during a probe: its first reading, its reset on the first 429, a window inferred. */
export interface HeaderFamilyClaim {
  format: HeaderFormat;
  revision: string;
  /** Index (in the probe's samples) of the response this family was first read from. */
  firstIndex: number;
  quota?: number;
  windowS?: number;
  remaining?: number;
  resetS?: number;
  /** How far below `resetS` the true reset may lie (see `resolutionOf`). */
  resetResolutionS?: number;
  /** What the quota counts (draft -08 on `qu`), when not requests. */
  quotaUnit?: string;
  /** The reset this family announced on the probe's first 429. */
  resetAt429S?: number;
  /** Seconds the true reset may lie below `resetAt429S`: whole seconds rounded up (1), twice for an epoch in seconds (2). */
  resetAt429ResolutionS?: number;
  /**
   * When the family states no window: the reset it announced on a fresh window (remaining = limit − 1), which the
   * drafts (-00 to -07) name as the way to learn the window of an unannounced policy.
   */
  windowFromResetS?: number;
  windowFromResetResolutionS?: number;
  fields: Record<string, string>;
  findings: string[];
  notes: string[];
}

/** Reads every response of a probe, in order (one `observe` per sample), and keeps what each family claimed. */
export class HeaderClaimsRecorder {
  readonly #claims = new Map<HeaderFormat, HeaderFamilyClaim>();
  #index = 0;
  #saw429 = false;

  observe(headers: Record<string, string>, status: number, nowMs: number): void {
    const index = this.#index++;
    const first429 = status === 429 && !this.#saw429;
    // The probe paces requests at up to hundreds a second: a family is read in full only on the responses that can
    // still add to its claim (its first, the first 429, a fresh window while its window is unknown).
    for (const format of detectFormats(headers)) {
      let claim = this.#claims.get(format);
      const wantsWindow = claim !== undefined && claim.windowS === undefined && claim.windowFromResetS === undefined && status !== 429;
      if (claim && !first429 && !wantsWindow) continue;
      const reading = readFormat(headers, format, nowMs);
      if (!claim) {
        claim = familyClaim(reading, format, index);
        this.#claims.set(format, claim);
      }
      if (first429 && reading.resetS !== undefined) {
        claim.resetAt429S = reading.resetS;
        claim.resetAt429ResolutionS = resolutionOf(reading);
      }
      if (claim.windowS === undefined && claim.windowFromResetS === undefined && status !== 429 && reading.quota !== undefined
        && reading.remaining === reading.quota - 1 && reading.resetS !== undefined && reading.resetS > 0) {
        claim.windowFromResetS = reading.resetS;
        claim.windowFromResetResolutionS = resolutionOf(reading);
      }
    }
    if (status === 429) this.#saw429 = true;
  }

  claims(): HeaderFamilyClaim[] {
    return [...this.#claims.values()];
  }
}

/**
 * How far below a reset the truth may lie: a delay-seconds value is whole seconds rounded up (1); an epoch time in
 * whole seconds (or an HTTP-date) is rounded up by the target and again when read as seconds from now (2).
 */
function resolutionOf(reading: RateLimitReading): number {
  return reading.resetForm === 'epoch-seconds' || reading.resetForm === 'http-date' ? 2 : 1;
}

function familyClaim(reading: RateLimitReading, format: HeaderFormat, firstIndex: number): HeaderFamilyClaim {
  return {
    format,
    revision: reading.revision ?? format,
    firstIndex,
    ...(reading.quota !== undefined ? { quota: reading.quota } : {}),
    ...(reading.windowS !== undefined ? { windowS: reading.windowS } : {}),
    ...(reading.remaining !== undefined ? { remaining: reading.remaining } : {}),
    ...(reading.resetS !== undefined ? { resetS: reading.resetS, resetResolutionS: resolutionOf(reading) } : {}),
    ...(reading.quotaUnit !== undefined && reading.quotaUnit !== 'requests' ? { quotaUnit: reading.quotaUnit } : {}),
    fields: reading.fields ?? {},
    findings: reading.findings,
    notes: reading.notes,
  };
}

/**
 * Each family's claims against the measurement: limit vs the estimated quota, window vs the estimated window,
 * the remaining count announced on the family's first response vs the requests admitted after it before the first
 * 429, and the reset announced on the first 429 vs the time until a request was admitted again. Numbers only:
 * the words (matches / DIFFERS) are `headerClaimLines`'.
 */
export function compareHeaderClaims(claims: readonly HeaderFamilyClaim[], result: Pick<ProbeResult, 'estimate' | 'retryAfter' | 'samples'>): HeaderClaimComparison[] {
  const { estimate: est, retryAfter, samples } = result;
  const first429 = samples.findIndex((s) => !s.admitted);
  return claims.map((claim) => {
    const compared: HeaderClaimComparison['compared'] = [];
    // A quota in other units (content-bytes, concurrent-requests) is not what a count of requests measures.
    const units = claim.quotaUnit === undefined ? undefined : `not comparable: the quota counts ${claim.quotaUnit}, the probe counts requests`;
    const observedQuota = est.limited && !units ? (est.quota ?? est.firstBurst) : undefined;
    compared.push(item('limit', claim.quota, observedQuota, units ?? (observedQuota === undefined ? 'not measured: no 429 came' : `the ${est.algorithm} estimate`)));
    const inferred = claim.windowS === undefined && claim.windowFromResetS !== undefined;
    const claimedWindow = claim.windowS ?? claim.windowFromResetS;
    compared.push(item('window', claimedWindow, est.windowS,
      `${claim.windowS !== undefined ? 'stated' : inferred ? 'not stated; the reset announced on a fresh window (remaining = limit − 1)' : 'not stated'}; observed: ${est.windowS !== undefined ? `the ${est.algorithm} estimate` : 'not measured'}`,
      inferred, inferred ? claim.windowFromResetResolutionS : undefined));
    let admittedAfter: number | undefined;
    let mayExceed = false;
    if (first429 > claim.firstIndex && !units) {
      admittedAfter = samples.slice(claim.firstIndex + 1, first429).filter((s) => s.admitted && s.credential === 'primary').length;
      // The count holds only until the window it was announced in ends (or a bucket refills). Unless the first 429
      // came before the announced reset's earliest moment, more admissions than announced are no contradiction —
      // fewer still are.
      const spanS = (samples[first429]!.t - samples[claim.firstIndex]!.t) / 1000;
      mayExceed = est.algorithm === 'token-bucket' || claim.resetS === undefined || spanS >= claim.resetS - (claim.resetResolutionS ?? 1);
    }
    const remaining = item('remaining', claim.remaining, admittedAfter,
      `announced on probe response ${claim.firstIndex + 1}; observed: ${units ?? (admittedAfter === undefined ? 'not measured: no 429 came after it' : 'requests admitted after it before the first 429')}`);
    compared.push(mayExceed && remaining.claimed !== undefined && remaining.observed !== undefined ? { ...remaining, mayExceed: true } : remaining);
    compared.push(item('reset', claim.resetAt429S, claim.resetAt429S === undefined ? undefined : retryAfter.actualRecoveryS,
      `announced on the first 429; observed: ${retryAfter.actualRecoveryS !== undefined ? 'time until a request was admitted again' : 'not measured: no recovery observed'}`,
      false, claim.resetAt429ResolutionS));
    return { format: claim.format, revision: claim.revision, fields: claim.fields, compared, findings: claim.findings, notes: claim.notes };
  });
}

function item(what: HeaderClaimComparison['compared'][number]['what'], claimed: number | undefined, observed: number | undefined, basis: string, inferred = false, resolutionS?: number): HeaderClaimComparison['compared'][number] {
  return {
    what,
    ...(claimed !== undefined ? { claimed } : {}),
    ...(observed !== undefined ? { observed } : {}),
    ...(inferred ? { inferred: true } : {}),
    ...(claimed !== undefined && resolutionS !== undefined ? { resolutionS } : {}),
    basis,
  };
}

/** Slack for a reset or an inferred window: the probe sees recovery only at its watch samples (≤ 100 ms apart). */
const WATCH_SLACK_S = 0.25;

/**
 * One line per header family for the terminal: what it claims and whether the measurement agrees. Counts match
 * within `tolerance` of the larger; a stated window within `tolerance` (as the policy match line); whole-second
 * values the target rounds up (a reset, a window inferred from one) match from `resolutionS` below the claim (1 s,
 * 2 s for an epoch reset in seconds) up to `tolerance` above it, plus the watch spacing.
 */
export function headerClaimLines(result: Pick<ProbeResult, 'headerClaims' | 'claimed'>, tolerance: number): string[] {
  const lines: string[] = [];
  for (const family of result.headerClaims ?? []) {
    const parts = family.compared.filter((c) => c.claimed !== undefined).map((c) => {
      const unit = c.what === 'window' || c.what === 'reset' ? ' s' : '';
      const label = `${c.what}${c.what === 'reset' ? ' at the first 429' : ''} ${c.claimed}${unit}${c.inferred ? ' (inferred from the reset)' : ''}`;
      if (c.observed === undefined) return `${label}: not comparable (${c.basis.replace(/^.*observed: /, '')})`;
      if (c.mayExceed && c.observed > c.claimed!) return `${label}: not comparable (${c.observed} admitted after it, but its window may have reset or its bucket refilled before the first 429)`;
      const whole = c.what === 'reset' || c.inferred;
      const ok = c.what === 'limit' || c.what === 'remaining'
        ? Math.abs(c.claimed! - c.observed) <= tolerance * Math.max(c.claimed!, c.observed)
        : whole
          ? c.observed >= c.claimed! - (c.resolutionS ?? 1) - 0.05 && c.observed <= c.claimed! * (1 + tolerance) + WATCH_SLACK_S
          : Math.abs(deviation(c.claimed!, c.observed)) <= tolerance;
      const seen = c.what === 'remaining' ? `${c.observed} admitted after it` : c.what === 'reset' ? `admitted again after ${c.observed} s` : `observed ${c.observed}${unit}`;
      return `${label}: ${ok ? 'matches' : 'DIFFERS'} (${seen})`;
    });
    lines.push(`header:     ${family.format} [${family.revision}]: ${parts.length > 0 ? parts.join('; ') : 'claims nothing comparable'}`);
    for (const note of family.notes) lines.push(`            note: ${note}`);
    // The claimed family's findings are already on the verdict's `headers:` line.
    for (const finding of family.findings) if (!result.claimed.findings.includes(finding)) lines.push(`            finding: ${finding}`);
  }
  return lines;
}

/** Relative difference of a claim from an observation: 0.1 = the claim is 10 % above it. */
export function deviation(claimed: number, observed: number): number {
  return observed === 0 ? (claimed === 0 ? 0 : Infinity) : (claimed - observed) / observed;
}

/** The headers' claim, completed from the config (api.rateLimitPolicy) where the headers state no quota or window. */
export function withConfiguredPolicy(claimed: ClaimedPolicy, policy: { quota: number; windowS: number } | undefined): ClaimedPolicy {
  if (!policy || (claimed.quota !== undefined && claimed.windowS !== undefined)) return { ...claimed, source: 'headers' };
  // A quota the headers state wins; only the missing window (X-RateLimit-*) or the whole policy comes from the config.
  if (claimed.quota !== undefined && claimed.quota !== policy.quota) return { ...claimed, source: 'headers' };
  return { ...claimed, quota: policy.quota, windowS: policy.windowS, source: 'config' };
}

/**
 * Admissions a claimed policy of `quota` per `windowS` cannot explain. In any span of length s, a fixed window
 * admits at most quota × (⌈s / w⌉ + 1) (a boundary falls inside the span), a sliding window less, and a token
 * bucket of that size refilling quota per w the same; so more admitted requests than that within one span
 * contradict the claim whatever the algorithm. Spans start at each admitted request; the largest excess wins.
 */
export function contradiction(samples: readonly Sample[], claimed: ClaimedPolicy): ClaimContradiction | undefined {
  const { quota, windowS } = claimed;
  if (quota === undefined || windowS === undefined || windowS <= 0) return undefined;
  if (claimed.quotaUnit !== undefined && claimed.quotaUnit !== 'requests') return undefined;
  const times = primarySamples(samples).filter((s) => s.admitted).map((s) => s.t);
  const windowMs = windowS * 1000;
  const slackMs = Math.max(100, 0.1 * windowMs);
  let worst: { admitted: number; spanMs: number; bound: number } | undefined;
  for (let i = 0; i < times.length; i++) {
    for (let j = times.length - 1; j > i; j--) {
      const spanMs = times[j]! - times[i]!;
      const admitted = j - i + 1;
      // Send times are taken before each request leaves: a slack covers arrival jitter at the target.
      const bound = quota * (Math.max(1, Math.ceil((spanMs + slackMs) / windowMs)) + 1);
      if (admitted > bound && (!worst || admitted - bound > worst.admitted - worst.bound)) worst = { admitted, spanMs, bound };
    }
  }
  if (!worst) return undefined;
  const spanS = Math.round(worst.spanMs) / 1000;
  return {
    admitted: worst.admitted,
    spanS,
    bound: worst.bound,
    claimedQuota: quota,
    claimedWindowS: windowS,
    detail: `${worst.admitted} requests were admitted within ${spanS} s, more than a policy of ${quota} per ${windowS} s admits in that time `
      + `(at most ${worst.bound}, counting a window boundary or a full bucket plus its refill)`,
  };
}
