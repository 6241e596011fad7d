/**
 * The rate-limit probe's findings as headline lines (report.json `rateLimit`): does the claimed policy match what
 * was observed (its `policyMatch`, judged as the terminal summary judges: src/ratelimit/probe/policy-match.ts), is
 * Retry-After honest, is the quota per credential. Only what the probe measured; "not established" otherwise.
 */
import type { HeadlineLine } from './headline-line.ts';
import { CLAIM_TOLERANCE } from '../ratelimit/probe/judge.ts';
import { describePart } from '../ratelimit/probe/policy-match.ts';
import type { RateLimitReport } from './report-load.ts';

export function probeFindings(rl: RateLimitReport): HeadlineLine[] {
  const lines: HeadlineLine[] = [];
  const claimed = rl.policyClaimed;
  const o = rl.observed;
  if (rl.contradiction) {
    lines.push({ label: 'Policy', text: `DIFFERS: ${rl.contradiction.detail}`, tone: 'warn' });
  } else if (!claimed) {
    lines.push({ label: 'Policy', text: `nothing claimed (${rl.headerStyle === 'none' ? 'no rate-limit headers' : 'no quota in the headers'}); observed ${describeObserved(rl)}`, tone: 'neutral' });
  } else if (!o) {
    lines.push({ label: 'Policy', text: `not tested: ${describeObserved(rl)}`, tone: 'neutral' });
  } else if (rl.policyMatch) {
    const { quota, window } = rl.policyMatch;
    const parts = [describePart('quota', quota), describePart('window', window)];
    const outcomes = [quota.outcome, window.outcome];
    const differs = outcomes.includes('differs');
    const settled = outcomes.every((o) => o === 'matches' || o === 'not-claimed');
    const text = `${differs ? 'DIFFERS' : settled ? 'match' : 'could not decide'}: ${parts.join('; ')}`;
    lines.push({ label: 'Policy', text, tone: differs ? 'warn' : settled ? 'pass' : 'neutral' });
  } else {
    // A report written before policyMatch existed: the point estimates alone.
    const pairs: Array<readonly [string, number, number | undefined, string]> = [['quota', claimed.quota, o.quota, ''], ['window', claimed.windowS, o.windowS, ' s']];
    const parts = pairs.map(([what, c, measured, unit]) => {
      if (measured === undefined) return `${what} not measured (claimed ${c}${unit})`;
      const d = measured === 0 ? (c === 0 ? 0 : Infinity) : (c - measured) / measured;
      return Math.abs(d) <= CLAIM_TOLERANCE ? `${what} matches (${c}${unit})` : `${what} DIFFERS (claimed ${c}${unit}, observed ${measured}${unit})`;
    });
    const differs = parts.some((p) => p.includes('DIFFERS'));
    lines.push({ label: 'Policy', text: `${differs ? 'DIFFERS' : 'match'}: ${parts.join('; ')}`, tone: differs ? 'warn' : 'pass' });
  }
  const ra = rl.retryAfter;
  const recovered = ra.actualRecoveryS !== undefined ? `admitted again after ${ra.actualRecoveryS} s` : `recovery ${rl.notMeasured?.recovery ?? 'not measured'}`;
  const claim = ra.claimedS !== undefined ? `Retry-After ${ra.claimedS} s, ${recovered}` : 'no Retry-After sent';
  const honest = ra.honest === undefined ? 'honesty not established' : ra.honest ? 'honest' : 'DISHONEST';
  lines.push({ label: 'Retry-After', text: `${honest}: ${claim}`, tone: ra.honest === false ? 'fail' : ra.honest ? 'pass' : 'neutral' });
  const iso = rl.isolation;
  const untested = iso.tested === false || iso.perCredential === undefined;
  const isoText = untested ? 'not tested' : iso.perCredential ? 'per credential' : 'SHARED between credentials';
  lines.push({ label: 'Isolation', text: `${isoText}${iso.detail ? ` — ${iso.detail}` : ''}`, tone: untested ? 'neutral' : iso.perCredential ? 'pass' : 'warn' });
  return lines;
}

/** Only what was measured: the observed policy, or how much was admitted without a single 429. */
function describeObserved(rl: RateLimitReport): string {
  const o = rl.observed;
  if (o) return `${o.algorithm} ${o.quota} per ${o.windowS !== undefined ? `${o.windowS} s` : 'an unmeasured window'}`;
  if (rl.admitted) return `no 429: ${rl.admitted.requests} requests admitted in ${rl.admitted.seconds} s (a lower bound, not a limit)`;
  return rl.notMeasured?.observed ?? 'no limit measured';
}
