/**
 * A correct target with a small quota (3 requests per 1 s) must not be failed by the harness's own clock: the
 * polite client waits the quota out and the check deadlines follow the rate limit (src/conformance/budget.ts). The
 * check deadline is 15 s, half the default, as the window is half the usual 2 s: the seeding and the walk each spend
 * longer than that waiting out the quota, so they pass only if their deadlines follow the rate limit.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configFromObject } from '../../../src/config/index.ts';
import { runJob } from '../../../src/job/run-job.ts';
import { createDefaultRegistry } from '../../../suites/index.ts';

describe('a correct target with a quota of 3 requests per 1 s', () => {
  it('fails no pagination check and is not not-certified', async () => {
    const config = configFromObject({
      reference: { rateLimit: { quota: 3, windowSeconds: 1 } },
      conformance: { suites: ['pagination'], checkTimeoutMs: 15_000 },
      load: { scenarios: [] },
      report: { outDir: mkdtempSync(join(tmpdir(), 'harness-small-quota-')) },
    });
    const outcome = await runJob({ config, registry: createDefaultRegistry(), log: () => {} });
    const checks = outcome.report.checks;
    const failed = checks.filter((c) => c.status === 'failed').map((c) => `${c.id}: ${c.message}`);
    expect(failed).toEqual([]);
    // Every check that could not finish says it was the rate limit, never a failure of its rule.
    for (const c of checks.filter((r) => r.status === 'error')) expect(c.message).toMatch(/^not run: rate limited/);
    expect(outcome.report.verdict).not.toBe('not-certified');
    expect(checks.some((c) => c.id.startsWith('pagination.walk') && c.status === 'passed')).toBe(true);
  }, 600_000);
});
