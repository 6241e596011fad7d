/**
 * The rate-limit probe against the limiters people deploy (test/targets/rate-limiters/): express-rate-limit 8 with
 * standardHeaders draft-6, draft-7 and draft-8 (and its default legacy X-RateLimit-* beside them), and
 * @fastify/rate-limit 11 (X-RateLimit-*, and RateLimit-* with enableDraftSpec). Issue 23: against draft-6 and
 * draft-7 the probe printed "claimed: nothing (no quota in the headers)". What is asserted is what the headers
 * claim, read exactly (limit, window, remaining, and the form of the reset); nothing about timing, which a loaded
 * machine may stretch. Windows are 1 s and quotas 5, so each probe is short.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { configFromObject } from '../../../src/config/index.ts';
import { HttpClient } from '../../../src/http/client.ts';
import { probeRateLimit } from '../../../src/ratelimit/probe/probe.ts';
import { runProbeJob } from '../../../src/job/probe-job.ts';
import type { HeaderClaimComparison, ProbeResult } from '../../../src/ratelimit/probe/types.ts';
import { formatProbe } from '../../../src/ratelimit/probe/verdict.ts';
import { reportIssues } from '../../../src/report/report-schema.ts';
import { runCli } from '../../helpers/cli.ts';
import { startExpressLimiter, startFastifyLimiter, type LimiterTarget } from '../../targets/rate-limiters/index.ts';

const QUOTA = 5;
const WINDOW_MS = 1000;

let target: LimiterTarget | undefined;
afterEach(async () => {
  await target?.close();
  target = undefined;
});

async function probe(t: LimiterTarget): Promise<ProbeResult> {
  const http = new HttpClient({ baseUrl: t.baseUrl, timeoutMs: 5000, retryOn429: false });
  try {
    return await probeRateLimit({ http, credential: undefined, maxRps: 40, budgetRequests: 80, budgetSeconds: 6, path: '/v1/whatsapp/messages' });
  } finally {
    await http.close();
  }
}

function claimed(family: HeaderClaimComparison | undefined, what: 'limit' | 'window' | 'remaining' | 'reset') {
  return family?.compared.find((c) => c.what === what);
}

describe('the probe reads what real rate limiters claim', () => {
  it.each([
    ['draft-6', 'ietf-draft-06', /-04 to -06/, '5;w=1'],
    ['draft-7', 'ietf-draft-07', /-07/, '5;w=1'],
    ['draft-8', 'ietf-draft-09', /-08 to -11/, expect.stringMatching(/^"5-in-1sec"; q=5; w=1; pk=:[A-Za-z0-9+/=]+:$/)],
  ] as const)('express-rate-limit standardHeaders %s (with its default legacy X-RateLimit-*)', async (draft, format, revision, raw) => {
    target = await startExpressLimiter({ standardHeaders: draft, limit: QUOTA, windowMs: WINDOW_MS });
    const result = await probe(target);
    expect(result.claimed).toMatchObject({ headerStyle: 'ietf', format, quota: QUOTA, windowS: 1, raw, findings: [] });
    const lines = formatProbe(result).join('\n');
    expect(lines).toContain(`claimed:    5 per 1 s (${format}: `);
    expect(lines).not.toMatch(/no quota in the headers/);
    // Both families are read and compared: the standard one first, then X-RateLimit-* (epoch-seconds reset).
    expect(result.headerClaims?.map((f) => f.format)).toEqual([format, 'x-ratelimit']);
    const [ietf, x] = result.headerClaims!;
    expect(ietf!.revision).toMatch(revision);
    expect(ietf!.findings).toEqual([]);
    for (const family of [ietf, x]) {
      expect(claimed(family, 'limit')?.claimed).toBe(QUOTA);
      expect(claimed(family, 'window')).toMatchObject({ claimed: 1 });
      expect(claimed(family, 'window')?.inferred).toBeUndefined();
      // The probe's first request is the target's first: a fresh window, one used.
      expect(claimed(family, 'remaining')?.claimed).toBe(QUOTA - 1);
    }
    // express-rate-limit's legacy reset is a Unix time in seconds, sent with a Date: read as such, and said so.
    expect(x!.notes.join('\n')).toMatch(/X-RateLimit-Reset \d+ read as epoch seconds/);
    expect(x!.fields['RateLimit-Policy']).toBeDefined();
    expect(lines).toMatch(new RegExp(`header: {5}${format} \\[`));
    expect(lines).toMatch(/header: {5}x-ratelimit \[X-RateLimit-\* \(vendor convention, no standard\)\]: limit 5: /);
  }, 30_000);

  it('@fastify/rate-limit: X-RateLimit-* with a delta reset, the window inferred from the reset of a fresh window', async () => {
    target = await startFastifyLimiter({ max: QUOTA, timeWindowMs: WINDOW_MS });
    const result = await probe(target);
    // X-RateLimit-* states no window; the policy claim has the quota only.
    expect(result.claimed).toMatchObject({ headerStyle: 'x-ratelimit', format: 'x-ratelimit', quota: QUOTA, raw: '5', findings: [] });
    expect(result.claimed.windowS).toBeUndefined();
    const [x] = result.headerClaims!;
    expect(result.headerClaims).toHaveLength(1);
    expect(claimed(x, 'limit')?.claimed).toBe(QUOTA);
    expect(claimed(x, 'remaining')?.claimed).toBe(QUOTA - 1);
    // Its first reset on a fresh window is the window, rounded up to seconds: the drafts' way to learn it.
    expect(claimed(x, 'window')).toMatchObject({ claimed: 1, inferred: true });
    expect(x!.notes.join('\n')).toMatch(/X-RateLimit-Reset 1 read as delta seconds/);
    expect(formatProbe(result).join('\n')).toMatch(/window 1 s \(inferred from the reset\)/);
  }, 30_000);

  it('@fastify/rate-limit enableDraftSpec: the RateLimit-Limit / -Remaining / -Reset fields of drafts -00 to -06', async () => {
    target = await startFastifyLimiter({ max: QUOTA, timeWindowMs: WINDOW_MS, enableDraftSpec: true });
    const result = await probe(target);
    expect(result.claimed).toMatchObject({ headerStyle: 'ietf', format: 'ietf-draft-06', quota: QUOTA, raw: '5', findings: [] });
    const [ietf] = result.headerClaims!;
    expect(result.headerClaims?.map((f) => f.format)).toEqual(['ietf-draft-06']);
    expect(ietf!.revision).toMatch(/-00 to -06/);
    expect(claimed(ietf, 'remaining')?.claimed).toBe(QUOTA - 1);
    expect(claimed(ietf, 'window')).toMatchObject({ claimed: 1, inferred: true });
  }, 30_000);

  it('`harness probe ratelimit --target` against express-rate-limit with its default draft-6 headers (the command issue 23 ran)', async () => {
    target = await startExpressLimiter({ standardHeaders: 'draft-6', limit: QUOTA, windowMs: WINDOW_MS });
    const out = mkdtempSync(join(tmpdir(), 'probe-express-cli-'));
    const result = await runCli(['probe', 'ratelimit', '--target', target.baseUrl, '--credential', 'none', '--max-rps', '40', '--budget-requests', '80', '--budget-seconds', '6', '--out', out]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('claimed:    5 per 1 s (ietf-draft-06: 5;w=1)');
    expect(result.stdout).not.toMatch(/no quota in the headers/);
    // The preflight request used one of the five, so the probe's first response announces 3 remaining (4 if the
    // 1 s window ended between the two, which a stalled machine can make happen).
    expect(result.stdout).toMatch(/header: {5}ietf-draft-06 \[draft-ietf-httpapi-ratelimit-headers-04 to -06 .*\]: limit 5: .*; window 1 s: .*; remaining [34]: /);
    expect(result.stdout).toMatch(/header: {5}x-ratelimit \[.*\]: limit 5: .*; window 1 s: .*; remaining [34]: /);
    expect(result.stdout).toMatch(/note: X-RateLimit-Reset \d+ read as epoch seconds/);
  }, 60_000);

  it('harness probe ratelimit (the job) against express-rate-limit draft-7 writes each family\'s claims into a valid report.json', async () => {
    target = await startExpressLimiter({ standardHeaders: 'draft-7', limit: QUOTA, windowMs: WINDOW_MS });
    const out = mkdtempSync(join(tmpdir(), 'probe-express-'));
    const lines: string[] = [];
    const config = configFromObject({ target: { baseUrl: target.baseUrl }, report: { outDir: out } });
    const { report } = await runProbeJob({ config, credential: 'none', maxRps: 40, budgetRequests: 80, budgetSeconds: 6, log: (l) => lines.push(l) });
    expect(reportIssues(report)).toEqual([]);
    expect(lines.join('\n')).toContain('claimed:    5 per 1 s (ietf-draft-07: 5;w=1)');
    expect(report.rateLimit).toMatchObject({ headerStyle: 'ietf', policyClaimed: { quota: QUOTA, windowS: 1, raw: '5;w=1', source: 'headers' } });
    const families = report.rateLimit!.headerClaims!;
    expect(families.map((f) => f.format)).toEqual(['ietf-draft-07', 'x-ratelimit']);
    expect(families[0]!.fields).toMatchObject({ 'RateLimit-Policy': '5;w=1', RateLimit: expect.stringMatching(/^limit=5, remaining=\d, reset=\d$/) });
    expect(families[0]!.compared.find((c) => c.what === 'limit')).toMatchObject({ claimed: QUOTA });
  }, 30_000);
});
