/** The probe's findings in words, for the terminal: claimed vs observed, algorithm, Retry-After, isolation. */
import { headerClaimLines } from './claims.ts';
import { CLAIM_TOLERANCE } from './judge.ts';
import { describePart, matchPolicy } from './policy-match.ts';
import type { ProbeResult } from './types.ts';

export function formatProbe(result: ProbeResult): string[] {
  const { claimed, estimate: est, retryAfter, isolation } = result;
  const lines: string[] = [];
  const claim = claimed.quota !== undefined
    ? `${claimed.quota} per ${claimed.windowS ?? '?'} s (${claimed.format ?? claimed.headerStyle}${claimed.raw ? `: ${claimed.raw}` : ''}${claimed.source === 'config' ? '; api.rateLimitPolicy' : ''})`
    : `nothing (${claimed.headerStyle === 'none' ? 'no rate-limit headers' : 'no quota in the headers'})`;
  lines.push(`claimed:    ${claim}`);
  if (!est.limited) {
    lines.push(`observed:   ${result.noLimitNote}; quota, window, recovery not measured (no 429)`);
    lines.push(`match:      ${result.contradiction ? `DIFFERS: ${result.contradiction.detail}` : claimed.quota !== undefined ? 'not comparable: no 429 measured the limit, and what was admitted does not contradict the claim' : 'nothing claimed to compare'}`);
    lines.push(`isolation:  ${isolation.detail}`);
  } else {
    const shape = est.algorithm === 'token-bucket'
      ? `token bucket: burst ${est.burst ?? '?'}, refill ${est.refillPerS ?? '?'}/s (refills fully in ${est.windowS ?? '?'} s)`
      : `${est.algorithm}: ${est.quota ?? '?'} per ${est.windowS ?? '?'} s`;
    // Incomplete says why the probe stopped and how much of its budget it had used: never a reason it did not see.
    lines.push(`observed:   ${shape}${est.complete ? '' : ` (incomplete: stopped by ${result.stoppedBy} after ${result.requests} of ${result.budget.requests} requests in ${result.elapsedS} of ${result.budget.seconds} s)`}`);
    lines.push(`            ${est.reasons.join('; ')}`);
    lines.push(`match:      ${matchLine(result)}`);
    const ra = retryAfter.claimedS !== undefined ? `Retry-After ${retryAfter.claimedS} s` : 'no Retry-After';
    const actual = retryAfter.actualRecoveryS !== undefined ? `; admitted again after ${retryAfter.actualRecoveryS} s` : '; no recovery observed';
    const honesty = retryAfter.honest === undefined ? 'not established' : retryAfter.honest ? 'honest' : 'DISHONEST';
    lines.push(`retry:      ${ra}${actual} — ${honesty}${retryAfter.notes.length ? ` (${retryAfter.notes.join('; ')})` : ''}`);
    lines.push(`isolation:  ${isolation.tested ? `${isolation.perCredential ? 'per credential' : 'SHARED'} — ` : ''}${isolation.detail}`);
    lines.push(`throttled requests consume quota: ${result.throttledConsume} (${result.throttledConsumeNote})`);
    const t = result.timing;
    lines.push(`timing:     send times place requests at the target within ±${t.uncertaintyMs} ms (round trips p50 ${t.rttP50Ms ?? '?'} ms, p99 ${t.rttP99Ms ?? '?'} ms; send lag p99 ${t.lagP99Ms ?? '?'} ms)`);
  }
  lines.push(...headerClaimLines(result, CLAIM_TOLERANCE));
  lines.push(`traffic:    ${result.requests} requests in ${result.elapsedS} s (peak ${result.peakRps} req/s); stopped: ${result.stoppedBy}`);
  if (claimed.findings.length > 0) lines.push(`headers:    ${claimed.findings.join('; ')}`);
  return lines;
}

/** "quota matches (claimed 100, observed 100); window matches (…)", what differs, or what could not be decided. */
export function matchLine(result: ProbeResult): string {
  const { claimed } = result;
  if (claimed.quota === undefined) return 'nothing claimed to compare';
  const parts: string[] = result.contradiction ? [`DIFFERS: ${result.contradiction.detail}`] : [];
  const match = matchPolicy(result);
  if (match) parts.push(describePart('quota', match.quota), describePart('window', match.window));
  return parts.join('; ');
}
