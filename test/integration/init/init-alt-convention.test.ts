/**
 * `harness init` against the alt-convention target (other PROFILE choices, no document): from its credentials alone
 * init finds its parameter names, page sizes, statuses, error shape, rate-limit headers and authorization path,
 * and the run with the drafted config ends with 0 failures at any level.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/index.ts';
import { runInit } from '../../../src/init/run-init.ts';
import { runJob } from '../../../src/job/run-job.ts';
import { createDefaultRegistry } from '../../../suites/index.ts';
import { harnessEnv, leakedFragments, secretValues } from '../../helpers/init-env.ts';
import { ALT, startAltConventionTarget } from '../../targets/alt-convention.ts';
import { closeAfterEach } from '../../helpers/close-after-each.ts';

// A whole init and run each: the tests' time limit is a bound, not a speed claim.
describe('harness init against the alt-convention target', { timeout: 600_000 }, () => {
  const closing = closeAfterEach();

  it('describes its choices from behaviour alone, and the run then fails nothing', async () => {
    const target = closing(await startAltConventionTarget());
    const env = harnessEnv(target.credentials);
    const dir = mkdtempSync(join(tmpdir(), 'harness-init-alt-'));
    const lines: string[] = [];
    const outcome = await runInit({ target: target.baseUrl, out: join(dir, 'harness.config.yaml'), force: false, env, log: (l) => lines.push(l) });
    const text = readFileSync(outcome.configFile, 'utf8');
    const schema = readFileSync(outcome.errorSchemaFile!, 'utf8');
    expect(leakedFragments(text + schema + lines.join('\n'), secretValues(target.credentials))).toEqual([]);
    expect(outcome.requests).toBeLessThanOrEqual(60);

    const config = loadConfig(outcome.configFile, { env, overrides: { report: { outDir: dir }, load: { scenarios: [] } } });
    expect(config.api.query).toMatchObject({ limit: ALT.query.limit, cursor: ALT.query.cursor });
    expect(config.api.pagination).toMatchObject({ defaultLimit: ALT.defaultPageSize, maxLimit: ALT.maxPageSize });
    expect(config.api.successStatus).toMatchObject({ sendMessage: 200, createCampaign: 200, sandboxInbound: 200, createWebhook: 200, deleteWebhook: 204 });
    expect(config.api.paths.oauthAuthorize).toBe(ALT.authorizePath);
    expect(config.api.rejectedStatus).toContain(ALT.rejectedStatus);
    expect(config.api.malformedJsonStatus).toEqual([ALT.rejectedStatus]);
    expect(config.api.rateLimitHeaders).toBe('x-ratelimit');
    expect(config.api.rateLimitPolicy, readFileSync(outcome.configFile, 'utf8').split('\n').filter((l) => l.includes('rateLimit')).join('\n')).toEqual({ quota: ALT.rateLimit.quota, windowSeconds: ALT.rateLimit.windowSeconds });
    expect(config.conformance.profile.problemJson).toBe(false);
    // Each departure says so, next to its evidence.
    expect(text).toMatch(/# GET \/v1\/whatsapp\/messages\?page_size=1 answered 200 with 1 item — departs from PROFILE\.md \(limit\)\n\s+limit: page_size/);

    const { report } = await runJob({ config, registry: createDefaultRegistry(), log: () => {} });
    const broken = report.checks.filter((c) => c.status === 'failed' || c.status === 'error').map((c) => `${c.status} ${c.level} ${c.id}: ${c.message ?? ''}`);
    expect(broken).toEqual([]);
    expect(report.summary.byLevel.MUST.undecided).toBe(0);
    expect(['certified', 'certified-with-warnings']).toContain(report.verdict);
  });
});
