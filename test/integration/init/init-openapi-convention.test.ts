/**
 * `harness init --openapi` against a target that serves its own OpenAPI document and makes other PROFILE choices
 * (test/targets/openapi-convention.ts): the drafted config follows the document, the run fails nothing; a single
 * MUST fault in that target is still caught after init; and where the document and the behaviour disagree, the
 * config follows the document and init prints the disagreement.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/index.ts';
import { runInit } from '../../../src/init/run-init.ts';
import { runJob } from '../../../src/job/run-job.ts';
import { createDefaultRegistry } from '../../../suites/index.ts';
import { harnessEnv, leakedFragments, secretValues } from '../../helpers/init-env.ts';
import type { FaultyTarget } from '../../targets/faulty-proxy.ts';
import { OAC, startOpenApiConventionTarget } from '../../targets/openapi-convention.ts';
import { openApiConventionDocument } from '../../targets/openapi-convention-document.ts';
import { closeAfterEach } from '../../helpers/close-after-each.ts';

async function initAndLoad(target: FaultyTarget, openapi: string, suites?: string[]) {
  const env = harnessEnv(target.credentials);
  const dir = mkdtempSync(join(tmpdir(), 'harness-init-oac-'));
  const lines: string[] = [];
  const outcome = await runInit({ target: target.baseUrl, openapi, out: join(dir, 'harness.config.yaml'), force: false, env, log: (l) => lines.push(l) });
  const config = loadConfig(outcome.configFile, { env, overrides: { report: { outDir: dir }, load: { scenarios: [] }, ...(suites ? { conformance: { suites } } : {}) } });
  return { outcome, config, lines, dir, text: readFileSync(outcome.configFile, 'utf8') };
}

// A whole init and run each: the tests' time limit is a bound, not a speed claim.
describe('harness init --openapi against the openapi-convention target', { timeout: 600_000 }, () => {
  const closing = closeAfterEach();

  it('follows the served document, and the run then fails nothing', async () => {
    const target = closing(await startOpenApiConventionTarget());
    const { config, lines, text, outcome } = await initAndLoad(target, `${target.baseUrl}/openapi.json`);
    expect(leakedFragments(text + lines.join('\n'), secretValues(target.credentials))).toEqual([]);
    expect(lines.filter((l) => l.startsWith('disagreement'))).toEqual([]);
    expect(config.api.query).toMatchObject({ limit: OAC.query.limit, cursor: OAC.query.cursor });
    expect(config.api.pagination).toMatchObject({ defaultLimit: OAC.defaultPageSize, maxLimit: OAC.maxPageSize });
    expect(config.api.successStatus).toMatchObject({ sendMessage: OAC.sendStatus, createCampaign: 201 });
    expect(config.api.rateLimitHeaders).toBe('ietf-draft-07');
    expect(config.conformance.profile.problemJson).toBe(true);
    expect(text).toContain('# #/paths/~1whatsapp~1messages/get/parameters/0 — departs from PROFILE.md (limit)');
    expect(outcome.requests).toBeLessThanOrEqual(60);

    const { report } = await runJob({ config, registry: createDefaultRegistry(), log: () => {} });
    const broken = report.checks.filter((c) => c.status === 'failed' || c.status === 'error').map((c) => `${c.status} ${c.level} ${c.id}: ${c.message ?? ''}`);
    expect(broken).toEqual([]);
    expect(report.summary.byLevel.MUST.undecided).toBe(0);
  });

  it('still catches a MUST fault (a message request without a credential served) after init', async () => {
    const target = closing(await startOpenApiConventionTarget({
      fault: (req, tools) => (req.path.startsWith('/v1/whatsapp/messages') && !req.headers.authorization
        ? { ...req, headers: { ...req.headers, authorization: `Bearer ${tools.reference.credentials.apiKeys.full}` } }
        : undefined),
    }));
    const { config } = await initAndLoad(target, `${target.baseUrl}/openapi.json`, ['auth']);
    const { report } = await runJob({ config, registry: createDefaultRegistry(), log: () => {} });
    const mustFailed = report.checks.filter((c) => c.level === 'MUST' && c.status === 'failed').map((c) => c.id);
    expect(mustFailed.length, report.checks.filter((c) => c.status !== 'passed').map((c) => `${c.status} ${c.level} ${c.id}`).join('\n')).toBeGreaterThan(0);
    expect(report.verdict).toBe('not-certified');
  });

  it('prints where the document and the behaviour disagree, and follows the document', async () => {
    const target = closing(await startOpenApiConventionTarget());
    const doc = openApiConventionDocument() as any;
    doc.components.parameters.PerPage.schema.maximum = 30;
    const file = join(mkdtempSync(join(tmpdir(), 'harness-init-doc-')), 'openapi.json');
    writeFileSync(file, JSON.stringify(doc));
    const { config, lines } = await initAndLoad(target, file);
    expect(config.api.pagination.maxLimit).toBe(30);
    expect(lines.join('\n')).toMatch(/disagreement: api\.pagination\.maxLimit: the document says 30 .*the target did 40 .*the config follows the document/);
  });
});
