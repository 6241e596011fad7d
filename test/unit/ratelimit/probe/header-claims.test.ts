/**
 * Each header family's claims against a measurement (src/ratelimit/probe/claims.ts), on synthetic traces: the
 * responses a probe saw, in order, and what it estimated. The words are decided from the numbers only, so
 * every verdict here is deterministic.
 */
import { describe, expect, it } from 'vitest';
import { compareHeaderClaims, headerClaimLines, HeaderClaimsRecorder } from '../../../../src/ratelimit/probe/claims.ts';
import type { Estimate, ProbeResult, RetryAfterFinding, Sample } from '../../../../src/ratelimit/probe/types.ts';

const NOW = Date.UTC(2025, 0, 1, 0, 0, 0);
const TOLERANCE = 0.1;

const ESTIMATE: Estimate = { limited: true, algorithm: 'fixed-window', quota: 5, windowS: 2.01, firstBurst: 5, complete: true, reasons: [] };
const RECOVERY: RetryAfterFinding = { claimedS: 2, actualRecoveryS: 1.7, samples: [], honest: true, notes: [] };

/** Responses 20 ms apart; `admitted` of them 200, then one 429. */
function trace(headersOf: (i: number, status: number) => Record<string, string>, admitted: number, gapMs = 20) {
  const recorder = new HeaderClaimsRecorder();
  const samples: Sample[] = [];
  for (let i = 0; i <= admitted; i++) {
    const status = i < admitted ? 200 : 429;
    recorder.observe(headersOf(i, status), status, NOW + i * gapMs);
    samples.push({ t: i * gapMs, credential: 'primary', phase: 'burst', status, admitted: status !== 429 });
  }
  return { recorder, samples };
}

function lines(recorder: HeaderClaimsRecorder, samples: Sample[], estimate: Estimate = ESTIMATE, retryAfter: RetryAfterFinding = RECOVERY): string[] {
  const headerClaims = compareHeaderClaims(recorder.claims(), { estimate, retryAfter, samples });
  const result: Pick<ProbeResult, 'headerClaims' | 'claimed'> = { headerClaims, claimed: { headerStyle: 'ietf', findings: [] } };
  return headerClaimLines(result, TOLERANCE);
}

/** express-rate-limit draft-7 with legacy headers: quota 5, window 2 s, counted down honestly. */
const express7 = (quota: number, window: number) => (i: number, status: number): Record<string, string> => ({
  date: new Date(NOW).toUTCString(),
  ratelimit: `limit=${quota}, remaining=${Math.max(0, quota - 1 - i)}, reset=${status === 429 ? 2 : window}`,
  'ratelimit-policy': `${quota};w=${window}`,
  'x-ratelimit-limit': String(quota),
  'x-ratelimit-remaining': String(Math.max(0, quota - 1 - i)),
  'x-ratelimit-reset': String(NOW / 1000 + window + 1),
});

describe('header claims against the measurement', () => {
  it('an honest limiter: every family matches, the epoch reset within its two seconds of resolution', () => {
    const { recorder, samples } = trace(express7(5, 2), 5);
    const out = lines(recorder, samples);
    expect(out[0]).toMatch(/^header: {5}ietf-draft-07 \[draft-ietf-httpapi-ratelimit-headers-07 .*\]: limit 5: matches \(observed 5\); window 2 s: matches \(observed 2.01 s\); remaining 4: matches \(4 admitted after it\); reset at the first 429 2 s: matches \(admitted again after 1.7 s\)$/);
    const x = out.find((l) => l.startsWith('header:     x-ratelimit'));
    expect(x).toMatch(/limit 5: matches.*window 2 s: matches.*remaining 4: matches.*reset at the first 429 3 s: matches \(admitted again after 1.7 s\)/);
    expect(out).toContainEqual(expect.stringMatching(/^ {12}note: X-RateLimit-Reset \d+ read as epoch seconds/));
    const [ietf] = compareHeaderClaims(recorder.claims(), { estimate: ESTIMATE, retryAfter: RECOVERY, samples });
    expect(ietf!.compared).toEqual([
      { what: 'limit', claimed: 5, observed: 5, basis: 'the fixed-window estimate' },
      { what: 'window', claimed: 2, observed: 2.01, basis: 'stated; observed: the fixed-window estimate' },
      { what: 'remaining', claimed: 4, observed: 4, basis: 'announced on probe response 1; observed: requests admitted after it before the first 429' },
      { what: 'reset', claimed: 2, observed: 1.7, resolutionS: 1, basis: 'announced on the first 429; observed: time until a request was admitted again' },
    ]);
  });

  it('a limiter that overstates its limit and its remaining count: DIFFERS', () => {
    // It claims 10 (9 remaining) but refuses the sixth request, 100 ms in, long before its 2 s reset.
    const { recorder, samples } = trace(express7(10, 2), 5);
    const [ietf] = lines(recorder, samples);
    expect(ietf).toMatch(/limit 10: DIFFERS \(observed 5\)/);
    expect(ietf).toMatch(/remaining 9: DIFFERS \(4 admitted after it\)/);
  });

  it('more admitted than announced is no contradiction once the announced window may have ended', () => {
    // The count was announced with "reset=1": the window may end any moment, so a burst running on past it proves nothing.
    const { recorder, samples } = trace((i, status) => ({ ratelimit: `limit=5, remaining=${Math.max(0, 4 - i)}, reset=1`, 'ratelimit-policy': '5;w=1' }), 9, 120);
    const estimate = { ...ESTIMATE, windowS: 1, firstBurst: 9 };
    expect(lines(recorder, samples, estimate)[0]).toMatch(/remaining 4: not comparable \(8 admitted after it, but its window may have reset or its bucket refilled before the first 429\)/);
    const [ietf] = compareHeaderClaims(recorder.claims(), { estimate, retryAfter: RECOVERY, samples });
    expect(ietf!.compared.find((c) => c.what === 'remaining')).toMatchObject({ claimed: 4, observed: 8, mayExceed: true });
  });

  it('a family without a window: the reset announced on a fresh window is the window, marked inferred', () => {
    const { recorder, samples } = trace((i, status) => ({ 'x-ratelimit-limit': '5', 'x-ratelimit-remaining': String(Math.max(0, 4 - i)), 'x-ratelimit-reset': status === 429 ? '2' : '2' }), 5);
    const [x] = compareHeaderClaims(recorder.claims(), { estimate: ESTIMATE, retryAfter: RECOVERY, samples });
    expect(x!.compared.find((c) => c.what === 'window')).toMatchObject({ claimed: 2, observed: 2.01, inferred: true, resolutionS: 1 });
    expect(lines(recorder, samples)[0]).toMatch(/window 2 s \(inferred from the reset\): matches \(observed 2.01 s\)/);
    // A window the estimate puts far from it differs.
    expect(lines(recorder, samples, { ...ESTIMATE, windowS: 10 })[0]).toMatch(/window 2 s \(inferred from the reset\): DIFFERS \(observed 10 s\)/);
  });

  it('a reset that promises recovery long before it comes, or long after, differs', () => {
    const { recorder, samples } = trace(express7(5, 2), 5);
    expect(lines(recorder, samples, ESTIMATE, { ...RECOVERY, actualRecoveryS: 4.5 })[0]).toMatch(/reset at the first 429 2 s: DIFFERS \(admitted again after 4.5 s\)/);
    expect(lines(recorder, samples, ESTIMATE, { ...RECOVERY, actualRecoveryS: 0.2 })[0]).toMatch(/reset at the first 429 2 s: DIFFERS \(admitted again after 0.2 s\)/);
  });

  it('without a 429 nothing is measured, and a quota in other units is not a request count', () => {
    const { recorder, samples } = trace(express7(5, 2), 3);
    const noLimit: Estimate = { limited: false, algorithm: 'unknown', firstBurst: 0, complete: false, reasons: [] };
    const none = samples.map((s) => ({ ...s, status: 200, admitted: true }));
    expect(lines(recorder, none, noLimit, { samples: [], honest: undefined, notes: [] })[0]).toMatch(/limit 5: not comparable \(not measured: no 429 came\); window 2 s: not comparable \(not measured\); remaining 4: not comparable \(not measured: no 429 came after it\); reset at the first 429 2 s: not comparable \(not measured: no recovery observed\)$/);
    const bytes = trace(() => ({ 'ratelimit-policy': '"b";q=65535;qu="content-bytes";w=2', ratelimit: '"b";r=60000;t=2' }), 3);
    expect(lines(bytes.recorder, bytes.samples)[0]).toMatch(/limit 65535: not comparable \(not comparable: the quota counts content-bytes, the probe counts requests\)/);
  });
});
