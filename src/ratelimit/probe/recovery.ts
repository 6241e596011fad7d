/**
 * Retry-After against the real recovery. For every 429 of the primary credential: when was a request admitted
 * next (actual recovery), and did a request sent at or after the claimed delay — with nothing admitted in
 * between, so no other traffic of ours used the quota — still get 429 (a dishonest Retry-After)?
 * The delay counts from when the 429 was received (RFC 9110 §10.2.3), not from when its request was sent: the
 * target chose the value at some point within that round trip.
 */
import { primarySamples } from './runs.ts';
import type { RecoverySample, RetryAfterFinding, Sample } from './types.ts';

/** Most recovery samples kept for the report. */
const MAX_SAMPLES = 20;
/** A Retry-After this many times the real recovery (and 2 s more) is noted as overstated. */
const OVERSTATED = 3;

export function analyseRecovery(samples: readonly Sample[]): RetryAfterFinding {
  const primary = primarySamples(samples, true);
  const notes: string[] = [];
  const recovery: RecoverySample[] = [];
  let honest: boolean | undefined;
  const firstIndex = primary.findIndex((s) => !s.admitted);
  if (firstIndex === -1) return { samples: [], honest: undefined, notes };
  const first = primary[firstIndex]!;

  for (let i = firstIndex; i < primary.length; i++) {
    const throttled = primary[i]!;
    if (throttled.admitted) continue;
    const nextAdmitted = primary.slice(i + 1).find((s) => s.admitted);
    const stretchStart = i === firstIndex || primary[i - 1]!.admitted;
    if (stretchStart && nextAdmitted && claimOf(throttled) !== undefined && nextAdmitted.t - throttled.t <= claimOf(throttled)! * 1000) {
      honest = honest ?? true; // admitted again no later than it said
    }
    if (nextAdmitted && recovery.length < MAX_SAMPLES && stretchStart) {
      // One sample per throttled stretch: its first 429, measured to the next admission.
      recovery.push({
        t: round(throttled.t / 1000),
        ...(throttled.retryAfterS !== undefined ? { claimedS: throttled.retryAfterS } : {}),
        actualS: round((nextAdmitted.t - throttled.t) / 1000),
      });
    }
    if (throttled.retryAfterS === undefined || throttled.retryAfterFromReset) continue;
    const due = throttled.t + (throttled.rttMs ?? 0) + throttled.retryAfterS * 1000;
    const later = primary.slice(i + 1).find((s) => s.t >= due);
    if (!later) continue;
    const between = primary.slice(i + 1).filter((s) => s.t < later.t);
    if (between.some((s) => s.admitted)) continue;
    if (later.admitted) honest = honest ?? true;
    else {
      if (honest !== false) {
        notes.push(`a 429 at ${round(throttled.t / 1000)} s said Retry-After ${throttled.retryAfterS} s, but a request `
          + `${round((later.t - throttled.t) / 1000)} s later was throttled again`
          + (nextAdmitted ? ` (admitted only after ${round((nextAdmitted.t - throttled.t) / 1000)} s)` : ''));
      }
      honest = false;
    }
  }
  const claimedS = first.retryAfterFromReset ? undefined : first.retryAfterS;
  const firstRecovery = recovery[0]?.t === round(first.t / 1000) ? recovery[0]!.actualS : undefined;
  if (claimedS !== undefined && firstRecovery !== undefined && claimedS > OVERSTATED * firstRecovery + 2) {
    notes.push(`Retry-After (${claimedS} s) overstates the wait: a request was admitted after ${firstRecovery} s`);
  }
  if (first.retryAfterS === undefined || first.retryAfterFromReset) notes.push('the first 429 carried no usable Retry-After');
  return {
    ...(claimedS !== undefined ? { claimedS } : {}),
    ...(firstRecovery !== undefined ? { actualRecoveryS: firstRecovery } : {}),
    samples: recovery,
    honest,
    notes,
  };
}

function claimOf(sample: Sample): number | undefined {
  return sample.retryAfterFromReset ? undefined : sample.retryAfterS;
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
