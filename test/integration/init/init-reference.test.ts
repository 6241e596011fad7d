/**
 * `harness init` against the reference target: the config it drafts is, key for key, what the shipped
 * harness.config.yaml says in effect, and a run with each ends with the same verdict and the same failures.
 * Neither the file nor the console holds a credential, whole or in part.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/index.ts';
import type { FrozenConfig } from '../../../src/config/types.ts';
import { runInit } from '../../../src/init/run-init.ts';
import { runJob } from '../../../src/job/run-job.ts';
import { createDefaultRegistry } from '../../../suites/index.ts';
import { harnessEnv, leakedFragments, secretValues, valueAt } from '../../helpers/init-env.ts';
import { startFaultyTarget } from '../../targets/faulty-proxy.ts';
import { closeAfterEach } from '../../helpers/close-after-each.ts';

const SHIPPED = resolve(import.meta.dirname, '../../../harness.config.yaml');
// A whole init and run each: the tests' time limit is a bound, not a speed claim.
describe('harness init against the reference target', { timeout: 600_000 }, () => {
  const closing = closeAfterEach();

  it('drafts a config equal in effect to the shipped one, with no credential in it or in its output', async () => {
    // Nothing rewritten: the proxy only lets the test share the JWT key and the short token lifetime a run uses.
    const target = closing(await startFaultyTarget({ reference: { tokens: { jwtTtlSeconds: 3 } } }));
    const env = harnessEnv(target.credentials);
    const dir = mkdtempSync(join(tmpdir(), 'harness-init-ref-'));
    const lines: string[] = [];
    const outcome = await runInit({ target: target.baseUrl, out: join(dir, 'harness.config.yaml'), force: false, env, log: (l) => lines.push(l) });
    const text = readFileSync(outcome.configFile, 'utf8');

    expect(leakedFragments(text + lines.join('\n'), secretValues(target.credentials))).toEqual([]);
    expect(text).toContain('apiKey: ${HARNESS_API_KEY:-}');
    expect(outcome.errorSchemaFile).toBeUndefined();
    expect(outcome.requests).toBeLessThanOrEqual(60);

    const overrides = { target: { baseUrl: target.baseUrl }, report: { outDir: dir }, load: { scenarios: [] } };
    const drafted = loadConfig(outcome.configFile, { env, overrides });
    const shipped = loadConfig(SHIPPED, { env, overrides });
    const written = [...outcome.findings.choices.keys()];
    expect(written.length).toBeGreaterThanOrEqual(20);
    const differences = written.filter((key) => JSON.stringify(valueAt(drafted, key)) !== JSON.stringify(valueAt(shipped, key)))
      .map((key) => `${key}: init ${JSON.stringify(valueAt(drafted, key))}, shipped ${JSON.stringify(valueAt(shipped, key))}`);
    expect(differences).toEqual([]);

    // Same checks decided the same way under both configs. A time-dependent check may come out "could not
    // decide" in either run on a busy machine (the run's measured conditions, never a pass or a failure), so the
    // verdicts are compared with those aside: certified, or certified with nothing but undecided checks.
    const runs = [];
    for (const config of [drafted, shipped] as FrozenConfig[]) {
      const { report } = await runJob({ config, registry: createDefaultRegistry(), log: () => {} });
      runs.push(report);
    }
    const [byInit, byShipped] = runs as [(typeof runs)[number], (typeof runs)[number]];
    for (const report of runs) {
      expect(report.checks.filter((c) => c.status === 'failed' || c.status === 'error').map((c) => `${c.level} ${c.id}`)).toEqual([]);
      const undecided = report.checks.filter((c) => c.status === 'undecided');
      expect(report.verdict).toBe(undecided.length === 0 ? 'certified' : undecided.some((c) => c.level === 'MUST') ? 'incomplete' : 'certified-with-warnings');
    }
    const statusOf = new Map(byShipped.checks.map((c) => [c.id, c.status]));
    const differing = byInit.checks
      .filter((c) => c.status !== statusOf.get(c.id) && c.status !== 'undecided' && statusOf.get(c.id) !== 'undecided')
      .map((c) => `${c.id}: init ${c.status}, shipped ${statusOf.get(c.id)}`);
    expect(differing).toEqual([]);
    expect(byInit.checks.map((c) => c.id)).toEqual(byShipped.checks.map((c) => c.id));
  });
});
