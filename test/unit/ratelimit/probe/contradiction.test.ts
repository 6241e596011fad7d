/**
 * A claimed policy contradicted by admissions: only what no fixed window, sliding window or token bucket of the
 * claimed quota per window could admit counts, so a correct target is never called DIFFERS.
 */
import { describe, expect, it } from 'vitest';
import { contradiction, withConfiguredPolicy } from '../../../../src/ratelimit/probe/claims.ts';
import type { ClaimedPolicy, Sample } from '../../../../src/ratelimit/probe/types.ts';

const admitted = (times: number[]): Sample[] => times.map((t) => ({ t, credential: 'primary', phase: 'burst', status: 200, admitted: true }));
const claim = (quota: number, windowS: number): ClaimedPolicy => ({ headerStyle: 'ietf', quota, windowS, findings: [] });

describe('contradiction', () => {
  it('a fixed window: a full quota at the end of one window and again at the start of the next is legal', () => {
    const times = [...Array.from({ length: 10 }, (_, i) => 990 + i), ...Array.from({ length: 10 }, (_, i) => 1000 + i)];
    expect(contradiction(admitted(times), claim(10, 1))).toBeUndefined();
  });

  it('a token bucket: a full bucket, then its refill over one window, is legal', () => {
    const burst = Array.from({ length: 10 }, () => 0);
    const refill = Array.from({ length: 10 }, (_, i) => 100 * (i + 1));
    expect(contradiction(admitted([...burst, ...refill]), claim(10, 1))).toBeUndefined();
  });

  it('300 admitted within 3 s against a claim of 60 per 60 s is contradicted, with the numbers', () => {
    const times = Array.from({ length: 300 }, (_, i) => i * 10);
    expect(contradiction(admitted(times), claim(60, 60))).toMatchObject({ admitted: 300, spanS: 2.99, bound: 120, claimedQuota: 60, claimedWindowS: 60 });
  });

  it('nothing to contradict without quota and window, or for a quota that does not count requests', () => {
    const times = Array.from({ length: 300 }, (_, i) => i * 10);
    expect(contradiction(admitted(times), { headerStyle: 'none', findings: [] })).toBeUndefined();
    expect(contradiction(admitted(times), { ...claim(60, 60), quotaUnit: 'content-bytes' })).toBeUndefined();
  });

  it('a 429 is not an admission', () => {
    const samples = Array.from({ length: 300 }, (_, i): Sample => ({ t: i * 10, credential: 'primary', phase: 'burst', status: 429, admitted: false }));
    expect(contradiction(samples, claim(60, 60))).toBeUndefined();
  });
});

describe('withConfiguredPolicy', () => {
  it('fills what the headers do not state, and never overrides a policy they state', () => {
    expect(withConfiguredPolicy({ headerStyle: 'x-ratelimit', quota: 60, findings: [] }, { quota: 60, windowS: 60 })).toMatchObject({ quota: 60, windowS: 60, source: 'config' });
    expect(withConfiguredPolicy({ headerStyle: 'none', findings: [] }, { quota: 5, windowS: 2 })).toMatchObject({ quota: 5, windowS: 2, source: 'config' });
    expect(withConfiguredPolicy(claim(100, 1), { quota: 5, windowS: 2 })).toMatchObject({ quota: 100, windowS: 1, source: 'headers' });
    expect(withConfiguredPolicy({ headerStyle: 'x-ratelimit', quota: 100, findings: [] }, { quota: 5, windowS: 2 })).toMatchObject({ quota: 100, source: 'headers' });
  });
});
