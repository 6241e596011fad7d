import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../../src/config/defaults.ts';
import { formatConfigIssue } from '../../../src/errors/harness-errors.ts';
import { exportK6Script } from '../../../src/load/export/k6-script.ts';
import { rateLimitExpectation, rateLimitThreshold } from '../../../src/load/rate-limit-expectation.ts';
import { createRequestMix } from '../../../src/load/request-mix.ts';
import { bearersFor } from '../../../src/load/run-scenario.ts';
import { checkScenarioText, loadScenarioFile } from '../../../src/load/scenario/load.ts';
import { resolveScenarioFile } from '../../../src/load/scenario/resolve.ts';

const api = defaultConfig().api;
const messages = (text: string): string[] => checkScenarioText(text, 'x.yaml', {}).issues.map(formatConfigIssue);

describe('rate-limit expectation', () => {
  it('expects max(0, 1 − credentials × quota / window / offered) and compares within the tolerance', () => {
    const e = rateLimitExpectation({ quota: 100, windowSeconds: 1 }, 2, 300, { requests: 1500, rateLimited: 480 });
    expect(e).toEqual({ perCredentialQuota: 100, windowSeconds: 1, credentials: 2, offeredRps: 300, expectedFraction: 0.3333, observedFraction: 0.32, tolerance: 0.05, edgeAllowance: 0.0889, ok: true });
    expect(rateLimitExpectation({ quota: 100, windowSeconds: 1 }, 2, 300, { requests: 1500, rateLimited: 0 }).ok).toBe(false);
    // Under the limit: nothing is expected to be throttled.
    expect(rateLimitExpectation({ quota: 300, windowSeconds: 1 }, 2, 240, { requests: 1200, rateLimited: 0 })).toMatchObject({ expectedFraction: 0, observedFraction: 0, ok: true });
    // A 10 s window: 2 × 100 / 10 = 20 allowed per second of 40 offered.
    expect(rateLimitExpectation({ quota: 100, windowSeconds: 10, tolerance: 0.1 }, 2, 40, { requests: 400, rateLimited: 160 })).toMatchObject({ expectedFraction: 0.5, observedFraction: 0.4, tolerance: 0.1, ok: true });
    // 100 s of it: the edges are 2 × 2 × 100 × 0.5 / 4000 = 0.05, so 0.4 passes and 0.35 does not.
    expect(rateLimitExpectation({ quota: 100, windowSeconds: 10, tolerance: 0.05 }, 2, 40, { requests: 4000, rateLimited: 1600 })).toMatchObject({ edgeAllowance: 0.05, ok: true });
    expect(rateLimitExpectation({ quota: 100, windowSeconds: 10, tolerance: 0.05 }, 2, 40, { requests: 4000, rateLimited: 1400 }).ok).toBe(false);
    // No requests: nothing observed, not ok.
    expect(rateLimitExpectation({ quota: 1, windowSeconds: 1 }, 1, 10, { requests: 0, rateLimited: 0 }).ok).toBe(false);
  });

  it('the windows a run covers only in part at its edges may lower the observed fraction, never raise it', () => {
    // 2 credentials × 100 per 1 s at 240/s for 5 s: 1/6 expected; a window covered 5/6 at each end throttles
    // 100 × 1/6 fewer per credential, so 0.1667 − 4 × 16.7 / 1200 = 0.1111 is a correct target's worst case.
    const worst = rateLimitExpectation({ quota: 100, windowSeconds: 1 }, 2, 240, { requests: 1200, rateLimited: 133 });
    expect(worst).toMatchObject({ expectedFraction: 0.1667, edgeAllowance: 0.0556, ok: true });
    expect(rateLimitExpectation({ quota: 100, windowSeconds: 1 }, 2, 240, { requests: 1200, rateLimited: 70 }).ok).toBe(false);
    // Above the expected fraction the edges excuse nothing: only the tolerance.
    expect(rateLimitExpectation({ quota: 100, windowSeconds: 1 }, 2, 240, { requests: 1200, rateLimited: 260 }).ok).toBe(true);
    expect(rateLimitExpectation({ quota: 100, windowSeconds: 1 }, 2, 240, { requests: 1200, rateLimited: 265 }).ok).toBe(false);
  });

  it('a failed expectation is a crossed rate_limited threshold', () => {
    const e = rateLimitExpectation({ quota: 300, windowSeconds: 1 }, 2, 240, { requests: 1200, rateLimited: 300 });
    expect(rateLimitThreshold(e)).toEqual({ metric: 'rate_limited', expr: 'expected fraction 0±0.05', ok: false, actual: 0.25 });
    const under = rateLimitExpectation({ quota: 100, windowSeconds: 1 }, 2, 300, { requests: 1500, rateLimited: 0 });
    expect(rateLimitThreshold(under).expr).toBe('expected fraction 0.3333±0.05 (−0.0889 more for the run\'s edges)');
  });
});

describe('several credentials', () => {
  it('rotates credentials round-robin, independent of the weighted mix', () => {
    const mix = createRequestMix(
      { requests: [{ name: 'send', weight: 3, operation: 'send' }, { name: 'list', weight: 1, operation: 'list' }] },
      { api, credentials: {}, bearers: ['k1', 'k2', 'k3'] },
    );
    expect(mix.credentialCount).toBe(3);
    const picks = Array.from({ length: 12 }, () => mix.next());
    expect(picks.map((r) => r.headers.authorization)).toEqual(Array.from({ length: 12 }, (_, i) => `Bearer k${(i % 3) + 1}`));
    expect(picks.filter((r) => r.name === 'send')).toHaveLength(9);
    // Each credential gets its share of each request name over a full period (lcm of 4 and 3).
    for (const k of ['k1', 'k2', 'k3']) expect(picks.filter((r) => r.headers.authorization === `Bearer ${k}` && r.name === 'send')).toHaveLength(3);
  });

  it('one credential keeps the old behaviour', () => {
    const mix = createRequestMix({ requests: [{ name: 'list', weight: 1, operation: 'list' }] }, { api, credentials: {}, bearer: 'only' });
    expect(mix.credentialCount).toBe(1);
    expect(mix.next().headers.authorization).toBe('Bearer only');
  });

  it('resolves bearers from the config and names a missing one', () => {
    expect(bearersFor({ name: 's', credential: 'apiKey', credentials: ['apiKey', 'secondKey'] }, { apiKey: 'a', secondKey: 'b' })).toEqual(['a', 'b']);
    expect(bearersFor({ name: 's', credential: 'none' }, {})).toEqual([]);
    expect(() => bearersFor({ name: 's', credential: 'apiKey', credentials: ['apiKey', 'secondKey'] }, { apiKey: 'a' })).toThrow(/secondKey/);
  });
});

describe('rate-limit scenario files', () => {
  const base = 'executor: constant-arrival-rate\nrate: 10\nduration: 2s\npreAllocatedVUs: 2\nrequests:\n  - operation: account\n';

  it('accepts credentials and rateLimit; credential defaults to the first of them', () => {
    const { scenario, issues } = checkScenarioText(`${base}credentials: [apiKey, secondKey]\nrateLimit: { quota: 5, windowSeconds: 1 }\n`, 'x.yaml', {});
    expect(issues).toEqual([]);
    expect(scenario).toMatchObject({ credential: 'apiKey', credentials: ['apiKey', 'secondKey'], rateLimit: { quota: 5, windowSeconds: 1 } });
  });

  it('reports misuse with file and line', () => {
    expect(messages(`${base}credential: apiKey\ncredentials: [apiKey]\n`)).toEqual([expect.stringMatching(/^x\.yaml:8:\d+: credentials: give either "credential" or "credentials", not both/)]);
    expect(messages(`${base}credentials: [apiKey, apiKey]\n`).join('\n')).toMatch(/x\.yaml:7:\d+: credentials/);
    expect(messages(`${base}credentials: [none]\n`).join('\n')).toMatch(/x\.yaml:7:\d+: credentials\[0\]/);
    expect(messages(`${base}rateLimit: { quota: 0, windowSeconds: 1 }\n`).join('\n')).toMatch(/x\.yaml:7:\d+: rateLimit\.quota/);
    expect(messages(`${base}rateLimit: { quota: 5 }\n`).join('\n')).toMatch(/x\.yaml:7:\d+: rateLimit.*windowSeconds/);
    expect(messages('executor: constant-vus\nvus: 1\nduration: 1s\nrequests:\n  - operation: account\nrateLimit: { quota: 5, windowSeconds: 1 }\n')).toEqual([
      expect.stringMatching(/^x\.yaml:6:\d+: rateLimit: applies to constant-arrival-rate only/),
    ]);
    expect(messages(`${base}credential: none\nrateLimit: { quota: 5, windowSeconds: 1 }\n`)).toEqual([expect.stringMatching(/^x\.yaml:8:\d+: rateLimit: the limit is per credential/)]);
  });

  it('the shipped ratelimit scenario exports to k6 with a rotating token list', () => {
    const scenario = loadScenarioFile(resolveScenarioFile('ratelimit'));
    expect(scenario).toMatchObject({ executor: 'constant-arrival-rate', credentials: ['apiKey', 'secondKey'], rateLimit: { quota: 100, windowSeconds: 1 } });
    const script = exportK6Script(scenario, { api });
    expect(script).toContain("const TOKENS = [env('HARNESS_API_KEY', ''), env('HARNESS_SECOND_KEY', '')];");
    // Rotated by k6's test-wide iteration number, as the harness rotates per request across its workers.
    expect(script).toContain('return TOKENS[scenario.iterationInTest % TOKENS.length];');
    expect(script).toContain('authorization: `Bearer ${nextToken()}`');
    expect(script).toContain('-e HARNESS_API_KEY=… -e HARNESS_SECOND_KEY=…');
  });
});
