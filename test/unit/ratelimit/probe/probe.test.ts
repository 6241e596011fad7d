/** probeRateLimit end to end on a virtual clock against the reference target's own limiters (no sockets). */
import { describe, expect, it } from 'vitest';
import { formatProbe, matchLine, matchPolicy, probeRateLimit, type ProbeResult } from '../../../../src/ratelimit/probe/index.ts';
import { toRateLimitReport } from '../../../../src/report/probe-report.ts';
import { createPacer } from '../../../../src/ratelimit/probe/pacer.ts';
import { reportIssues } from '../../../../src/report/report-schema.ts';
import { simulatedTarget, type SimulatedOptions } from './simulated-target.ts';

const BUDGET = { maxRps: 100, budgetRequests: 2000, budgetSeconds: 60 };

async function run(options: SimulatedOptions, budget: Partial<typeof BUDGET> = {}): Promise<ProbeResult> {
  const sim = simulatedTarget(options);
  return probeRateLimit({ http: sim.http, credential: 'key-a', secondCredential: 'key-b', ...BUDGET, ...budget, now: sim.now, sleep: sim.sleep });
}

function near(actual: number | undefined, expected: number, share: number): void {
  expect(actual).toBeDefined();
  expect(Math.abs(actual! - expected) / expected).toBeLessThanOrEqual(share);
}

describe('probeRateLimit (virtual clock)', () => {
  for (const offset of [0, 700, 1900]) {
    it(`fixed window 10 per 2 s, phase ${offset} ms`, async () => {
      const result = await run({ algorithm: 'fixed-window', quota: 10, windowSeconds: 2, startMs: 1_700_000_000_000 + offset });
      expect(result.estimate).toMatchObject({ algorithm: 'fixed-window', quota: 10, complete: true });
      near(result.estimate.windowS, 2, 0.1);
      expect(result.elapsedS).toBeLessThanOrEqual(6);
      expect(result.retryAfter.honest).toBe(true);
      expect(result.isolation).toMatchObject({ tested: true, perCredential: true });
      expect(result.throttledConsume).toBe('no');
    });
  }

  it('fixed window 50 per 10 s', async () => {
    const result = await run({ algorithm: 'fixed-window', quota: 50, windowSeconds: 10, startMs: 1_700_000_003_000 });
    expect(result.estimate).toMatchObject({ algorithm: 'fixed-window', quota: 50 });
    near(result.estimate.windowS, 10, 0.1);
    expect(result.elapsedS).toBeLessThanOrEqual(30);
  });

  it('token bucket, burst 20 refilling 5/s', async () => {
    const result = await run({ algorithm: 'token-bucket', quota: 20, windowSeconds: 4, refillPerSecond: 5 });
    expect(result.estimate).toMatchObject({ algorithm: 'token-bucket', burst: 20, complete: true });
    near(result.estimate.refillPerS, 5, 0.1);
    expect(result.elapsedS).toBeLessThanOrEqual(12);
  });

  it('a token bucket whose first burst was sent at about the refill rate: its size could not be decided, never DIFFERS', async () => {
    // Burst 50 refilling 50/s (claimed: 50 per 1 s); the sender manages 66/s during its first burst only (then 1000/s).
    const result = await run({ algorithm: 'token-bucket', quota: 50, windowSeconds: 1, refillPerSecond: 50, firstBurstLatencyMs: 15 }, { maxRps: 1000 });
    expect(result.estimate.algorithm).toBe('token-bucket');
    const match = matchPolicy(result)!;
    expect(match.quota.outcome).toBe('undecidable');
    expect(match.quota.detail).toMatch(/no more than twice the refill rate \(\d+(\.\d+)?\/s\): about \d+ of its admissions may be refill/);
    expect(match.window.outcome).toBe('undecidable');
    expect(matchLine(result)).not.toMatch(/DIFFERS/);
    expect(toRateLimitReport(result).policyMatch?.quota.outcome).toBe('undecidable');
  });

  it('a bucket probed clearly faster than its refill: claimed burst and window match', async () => {
    const result = await run({ algorithm: 'token-bucket', quota: 100, windowSeconds: 2, refillPerSecond: 50 }, { maxRps: 1000 });
    const match = matchPolicy(result)!;
    expect(match.quota.outcome, match.quota.detail).toBe('matches');
    expect(matchLine(result)).toMatch(/^quota matches \(claimed 100, observed 100/);
    const report = toRateLimitReport(result);
    expect(reportIssues({ rateLimit: report } as never)).toBeDefined();
    expect(report.policyMatch?.quota).toMatchObject({ outcome: 'matches', claimed: 100 });
  });

  it('sliding window 10 per 2 s', async () => {
    const result = await run({ algorithm: 'sliding-window', quota: 10, windowSeconds: 2 });
    expect(result.estimate).toMatchObject({ algorithm: 'sliding-window', quota: 10, complete: true });
    near(result.estimate.windowS, 2, 0.1);
  });

  it('never exceeds its budgets or maxRps', async () => {
    const result = await run({ algorithm: 'fixed-window', quota: 1_000_000, windowSeconds: 1 }, { maxRps: 50, budgetRequests: 120, budgetSeconds: 10 });
    expect(result.requests).toBe(120);
    const times = result.samples.map((s) => s.t);
    const spacing = Math.min(...times.slice(1).map((t, i) => t - times[i]!));
    expect(spacing).toBeGreaterThanOrEqual(1000 / 50 - 1e-6);
    const timed = await run({ algorithm: 'fixed-window', quota: 1_000_000, windowSeconds: 1 }, { maxRps: 50, budgetRequests: 10_000, budgetSeconds: 3 });
    expect(timed.elapsedS).toBeLessThanOrEqual(3);
    expect(timed.stoppedBy).toBe('time budget');
  });

  it('no limit: "no limit observed up to N req/s", and a valid report section', async () => {
    const result = await run({ algorithm: 'fixed-window', quota: 1, windowSeconds: 1, noLimit: true }, { budgetRequests: 300 });
    expect(result.estimate.limited).toBe(false);
    expect(result.noLimitNote).toMatch(/^no limit observed up to 100 req\/s \(300 requests/);
    expect(result.claimed.headerStyle).toBe('none');
    const report = toRateLimitReport(result);
    // Nothing was measured that a 429 would have measured: no quota, window, recovery or isolation.
    expect(report.observed).toBeUndefined();
    expect(report.retryAfter.actualRecoveryS).toBeUndefined();
    expect(report.isolation).toEqual({ tested: false, detail: 'not tested: the first credential was never throttled' });
    expect(report.admitted).toMatchObject({ requests: 300 });
    expect(report.notMeasured).toMatchObject({ observed: expect.stringMatching(/^not measured: no request was answered 429/), recovery: 'not measured: no 429 came' });
    expect(report.contradiction).toBeUndefined();
  });

  it('a never-throttling target claiming 60 per 60 s: the admissions contradict the claim (DIFFERS)', async () => {
    const claim = () => ({ 'ratelimit-policy': '"default";q=60;w=60', ratelimit: '"default";r=59;t=60' });
    const result = await run({ algorithm: 'fixed-window', quota: 1, windowSeconds: 1, noLimit: true, rewrite: claim }, { budgetRequests: 300 });
    expect(result.estimate.limited).toBe(false);
    expect(result.claimed).toMatchObject({ quota: 60, windowS: 60 });
    expect(result.contradiction).toMatchObject({ admitted: 300, bound: 120 });
    const report = toRateLimitReport(result);
    expect(report.contradiction?.detail).toMatch(/^300 requests were admitted within 2\.99 s, more than a policy of 60 per 60 s admits/);
    expect(report.observed).toBeUndefined();
    expect(formatProbe(result).join('\n')).toMatch(/match: +DIFFERS: 300 requests were admitted/);
  });

  it('X-RateLimit-* headers without a window: the claim takes its window from api.rateLimitPolicy', async () => {
    const claim = () => ({ 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '59' });
    const sim = simulatedTarget({ algorithm: 'fixed-window', quota: 1, windowSeconds: 1, noLimit: true, rewrite: claim });
    const result = await probeRateLimit({ http: sim.http, credential: 'key-a', ...BUDGET, budgetRequests: 200, now: sim.now, sleep: sim.sleep, policy: { quota: 60, windowS: 60 } });
    expect(result.claimed).toMatchObject({ headerStyle: 'x-ratelimit', quota: 60, windowS: 60, source: 'config' });
    expect(result.contradiction).toBeDefined();
    expect(toRateLimitReport(result).policyClaimed).toMatchObject({ quota: 60, windowS: 60, source: 'config' });
  });

  it('two credentials sharing one bucket: isolation fails', async () => {
    const result = await run({ algorithm: 'fixed-window', quota: 10, windowSeconds: 2, shared: true });
    expect(result.isolation).toMatchObject({ tested: true, perCredential: false });
  });

  it('a Retry-After shorter than the real wait is dishonest', async () => {
    const result = await run({
      algorithm: 'sliding-window', quota: 20, windowSeconds: 3,
      rewrite: (status, headers) => (status === 429 ? { ...headers, 'retry-after': '1' } : headers),
    });
    expect(result.retryAfter.honest).toBe(false);
    expect(result.retryAfter.claimedS).toBe(1);
    near(result.retryAfter.actualRecoveryS, 3, 0.1);
  });

  it('the report section matches schemas/report.schema.json', async () => {
    const result = await run({ algorithm: 'token-bucket', quota: 20, windowSeconds: 4, refillPerSecond: 5 });
    const rateLimit = toRateLimitReport(result);
    expect(rateLimit).toMatchObject({ headerStyle: 'ietf', policyClaimed: { quota: 20, windowS: 4 }, observed: { algorithm: 'token-bucket', burst: 20 } });
    const report = {
      schemaVersion: 1,
      run: { id: 'x', startedAt: '2026-01-01T00:00:00.000Z', finishedAt: '2026-01-01T00:00:01.000Z', harnessVersion: '0.0.0', target: { baseUrl: 'http://127.0.0.1:1', embedded: true } },
      verdict: 'certified',
      checks: [],
      summary: { total: 0, passed: 0, failed: 0, skipped: 0, errors: 0, byLevel: {} },
      coverage: { clauses: [] },
      rateLimit,
    };
    expect(reportIssues(report).filter((issue) => issue.path.startsWith('/rateLimit'))).toEqual([]);
  });
});

describe('createPacer', () => {
  it('spaces sends and refuses past the budgets', async () => {
    let clock = 0;
    const pacer = createPacer({ maxRps: 10, budgetRequests: 3, budgetSeconds: 100, now: () => clock, sleep: async (ms) => void (clock += ms) });
    expect([await pacer.slot(), await pacer.slot(), await pacer.slot()]).toEqual([0, 100, 200]);
    expect(await pacer.slot()).toBeUndefined();
    expect(pacer.exhausted).toBe('request budget');
  });
});
