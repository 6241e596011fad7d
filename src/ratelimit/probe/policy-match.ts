/**
 * The claimed policy against the observed one, each number judged on the interval its measurement allows
 * (judge.ts): the terminal summary, report.json and the ratelimit.policy checks all judge alike, so none says
 * DIFFERS where the measurement could not decide (a probe slowed to about the policy's own rate, say).
 */
import { judgeClaim, observedQuota, observedWindow, type Observed } from './judge.ts';
import type { ProbeResult } from './types.ts';

export interface PartMatch {
  /** `not-claimed`: nothing claimed this number; `undecidable`: the measurement cannot tell (see `detail`). */
  outcome: 'matches' | 'differs' | 'undecidable' | 'not-claimed';
  claimed?: number;
  /** The observation: point estimate and every value the measurement allows. */
  observed?: { value: number; low: number; high: number };
  /** Signed share the claim is off the point estimate (claimed over observed), for matches and differs. */
  deviation?: number;
  /** How the interval was derived, or why nothing could be decided. */
  detail: string;
}

export interface PolicyMatch {
  quota: PartMatch;
  window: PartMatch;
}

/** Undefined when nothing is to compare: no 429 measured the limit (the probe's contradiction says what was seen). */
export function matchPolicy(result: ProbeResult): PolicyMatch | undefined {
  if (!result.estimate.limited) return undefined;
  return {
    quota: matchPart(result.claimed.quota, observedQuota(result)),
    window: matchPart(result.claimed.windowS, observedWindow(result)),
  };
}

function matchPart(claimed: number | undefined, observed: Observed | string): PartMatch {
  if (claimed === undefined) return { outcome: 'not-claimed', detail: 'not claimed' };
  if (typeof observed === 'string') return { outcome: 'undecidable', claimed, detail: observed };
  const interval = { value: observed.value, low: observed.low, high: observed.high };
  const judged = judgeClaim(claimed, observed);
  if (judged.outcome === 'undecidable') return { outcome: 'undecidable', claimed, observed: interval, detail: judged.reason };
  return { outcome: judged.outcome, claimed, observed: interval, deviation: round(judged.deviation), detail: observed.how };
}

/** "quota matches (claimed 100, observed 100)", "window DIFFERS by 200% (…)", "quota: could not decide (why)". */
export function describePart(what: 'quota' | 'window', part: PartMatch): string {
  const unit = what === 'window' ? ' s' : '';
  const observed = part.observed
    ? `observed ${part.observed.value}${unit}${part.observed.low === part.observed.high ? '' : `, anywhere in ${part.observed.low} … ${part.observed.high}${unit}`}`
    : '';
  switch (part.outcome) {
    case 'not-claimed':
      return `${what}: not claimed`;
    case 'undecidable':
      return `${what}: could not decide (claimed ${part.claimed}${unit}; ${part.detail})`;
    case 'matches':
      return `${what} matches (claimed ${part.claimed}${unit}, ${observed})`;
    case 'differs':
      return `${what} DIFFERS by ${((part.deviation ?? 0) * 100).toFixed(0)}% (claimed ${part.claimed}${unit}, ${observed}: ${part.detail})`;
  }
}

function round(value: number): number {
  return Number.isFinite(value) ? Math.round(value * 1000) / 1000 : value;
}
