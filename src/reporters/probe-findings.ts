/**
 * The rate-limit probe's findings as headline lines (report.json `rateLimit`): does the claimed policy match what
 * was observed (within 10 %, as the probe's terminal summary judges: src/ratelimit/probe/verdict.ts), is
 * Retry-After honest, is the quota per credential. Only what the probe measured; "not established" otherwise.
 */
import type { HeadlineLine } from './headline.ts';
import type { RateLimitReport } from './report-load.ts';

/** The probe's CLAIM_TOLERANCE: a claim within 10 % of the observation matches. */
const TOLERANCE = 0.1;

export function probeFindings(rl: RateLimitReport): HeadlineLine[] {
  const lines: HeadlineLine[] = [];
  const claimed = rl.policyClaimed;
  const limited = rl.timeline.some((p) => p.limited > 0);
  if (!claimed) {
    lines.push({ label: 'Policy', text: `nothing claimed (${rl.headerStyle === 'none' ? 'no rate-limit headers' : 'no quota in the headers'}); observed ${describeObserved(rl, limited)}`, tone: 'neutral' });
  } else {
    const parts = ([['quota', claimed.quota, rl.observed.quota, ''], ['window', claimed.windowS, rl.observed.windowS, ' s']] as const).map(([what, c, o, unit]) => {
      const d = o === 0 ? (c === 0 ? 0 : Infinity) : (c - o) / o;
      return Math.abs(d) <= TOLERANCE ? `${what} matches (${c}${unit})` : `${what} DIFFERS (claimed ${c}${unit}, observed ${o}${unit})`;
    });
    const differs = parts.some((p) => p.includes('DIFFERS'));
    lines.push({ label: 'Policy', text: `${differs ? 'DIFFERS' : 'match'}: ${parts.join('; ')}`, tone: differs ? 'warn' : 'pass' });
  }
  const ra = rl.retryAfter;
  const claim = ra.claimedS !== undefined ? `Retry-After ${ra.claimedS} s, admitted again after ${ra.actualRecoveryS} s` : 'no Retry-After sent';
  const honest = ra.honest === undefined ? 'honesty not established' : ra.honest ? 'honest' : 'DISHONEST';
  lines.push({ label: 'Retry-After', text: `${honest}: ${claim}`, tone: ra.honest === false ? 'fail' : ra.honest ? 'pass' : 'neutral' });
  const iso = rl.isolation;
  const isoText = iso.tested === false ? 'not tested' : iso.perCredential ? 'per credential' : 'SHARED between credentials';
  lines.push({ label: 'Isolation', text: `${isoText}${iso.detail ? ` — ${iso.detail}` : ''}`, tone: iso.tested === false ? 'neutral' : iso.perCredential ? 'pass' : 'warn' });
  return lines;
}

function describeObserved(rl: RateLimitReport, limited: boolean): string {
  if (!limited) return `no 429 (${rl.observed.quota} requests in ${rl.observed.windowS} s)`;
  return `${rl.observed.algorithm} ${rl.observed.quota} per ${rl.observed.windowS} s`;
}
