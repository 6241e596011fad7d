/**
 * `harness run` with the webhooks suite and the smoke scenario against the reference target: a second receiver is
 * registered while the scenario runs, and report.json `webhooks.underLoad` carries what it saw.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromObject } from '../../../src/config/index.ts';
import { credentialsFromReference } from '../../../src/job/open-target.ts';
import { runJob } from '../../../src/job/run-job.ts';
import { loadScenarios } from '../../../src/load/scenario/select.ts';
import { reportIssues } from '../../../src/report/report-schema.ts';
import { startReferenceTarget } from '../../../src/target/index.ts';
import { createDefaultRegistry } from '../../../suites/index.ts';

describe('webhooks under load (harness run)', () => {
  let target: Awaited<ReturnType<typeof startReferenceTarget>>;
  beforeAll(async () => {
    target = await startReferenceTarget({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await target?.close();
  });

  function config(suites: string[]) {
    return configFromObject({
      target: { baseUrl: target.baseUrl },
      credentials: credentialsFromReference(target.credentials),
      conformance: { suites },
      report: { outDir: mkdtempSync(join(tmpdir(), 'harness-report-')) },
    });
  }

  it('reports webhooks.underLoad {received, deliveryLatency} next to the suite figures, valid against the schema', async () => {
    const lines: string[] = [];
    const outcome = await runJob({ config: config(['webhooks']), registry: createDefaultRegistry(), scenarios: loadScenarios(['smoke']), log: (line) => lines.push(line) });
    expect(outcome.report.checks.find((c) => c.id === 'webhooks.management.create')?.status).toBe('passed');
    expect(outcome.report.scenarios).toHaveLength(1);
    const wh = outcome.report.webhooks!;
    expect(wh.received).toBeGreaterThan(0);
    expect(wh.underLoad, lines.join('\n')).toBeDefined();
    expect(wh.underLoad!.received).toBeGreaterThan(0);
    const latency = wh.underLoad!.deliveryLatency!;
    for (const key of ['p50', 'p99', 'max'] as const) expect(latency[key]).toBeGreaterThanOrEqual(0);
    expect(latency.p50).toBeLessThanOrEqual(latency.p99);
    expect(latency.p99).toBeLessThanOrEqual(latency.max);
    expect(lines.filter((line) => line.startsWith('webhooks under load'))).toEqual([]);
    const written = JSON.parse(readFileSync(join(outcome.runDir, 'report.json'), 'utf8'));
    expect(written.webhooks.underLoad).toEqual(wh.underLoad);
    expect(reportIssues(written)).toEqual([]);
    // The webhook registered for the load is deleted again.
    const list = await fetch(`${target.baseUrl}/v1/webhooks`, { headers: { authorization: `Bearer ${credentialsFromReference(target.credentials).apiKey}` } });
    expect(list.status).toBe(200);
    expect(JSON.stringify(await list.json())).not.toContain("\"url\"");
  }, 15_000);

  it('without the webhooks suite no receiver is registered for the load and no underLoad appears', async () => {
    const outcome = await runJob({ config: config(['smoke']), registry: createDefaultRegistry(), scenarios: loadScenarios(['smoke']), log: () => {} });
    expect(outcome.report.scenarios).toHaveLength(1);
    expect(outcome.report.webhooks).toBeUndefined();
  }, 15_000);
});
