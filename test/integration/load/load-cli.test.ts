/** `harness load` and `harness validate` as a user runs them (child processes). */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.ts';
import { reportIssues } from '../../../src/report/report-schema.ts';

const dir = mkdtempSync(join(tmpdir(), 'harness-load-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('harness load (CLI)', () => {
  it('exits 99 when a threshold is crossed, and report.json (with report.html and junit.xml) names it', async () => {
    const file = join(dir, 'strict.yaml');
    writeFileSync(
      file,
      [
        'executor: constant-arrival-rate',
        'rate: 50',
        'duration: 5s',
        'preAllocatedVUs: 5',
        'requests:',
        '  - { name: send, operation: send }',
        'thresholds:',
        "  'http_req_duration{name:send}': ['p(50)<0.001']",
        "  http_req_failed: ['rate<0.5']",
      ].join('\n'),
    );
    const out = join(dir, 'reports');
    const result = await runCli(['load', '--scenario', file, '--duration', '1s', '--out', out, '--no-progress'], { timeoutMs: 30_000 });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(99);
    expect(result.stdout).toContain('CROSSED  http_req_duration{name:send}: p(50)<0.001');
    const [runId] = readdirSync(out);
    const report = JSON.parse(readFileSync(join(out, runId!, 'report.json'), 'utf8')) as { schemaVersion: number; verdict: string; checks: unknown[]; run: { target: { embedded: boolean } }; scenarios: Array<{ name: string; requests: number; dropped: number; thresholds: Array<{ metric: string; expr: string; ok: boolean; actual: number }> }> };
    expect(report.schemaVersion).toBe(1);
    expect(reportIssues(report)).toEqual([]);
    // No check ran: the report neither certifies nor fails the target.
    expect(report.verdict).toBe('not-evaluated');
    expect(report.checks).toEqual([]);
    expect(existsSync(join(out, runId!, 'report.html'))).toBe(true);
    expect(readFileSync(join(out, runId!, 'junit.xml'), 'utf8')).toContain('p(50)&lt;0.001');
    expect(report.run.target.embedded).toBe(true);
    expect(report.scenarios[0]!.name).toBe('strict');
    // rate × duration arrivals: answered, or dropped when the embedded target's cold start kept all 5 VUs busy.
    expect(report.scenarios[0]!.requests + report.scenarios[0]!.dropped).toBe(50);
    expect(report.scenarios[0]!.thresholds).toEqual([
      { metric: 'http_req_duration{name:send}', expr: 'p(50)<0.001', ok: false, actual: expect.any(Number) },
      { metric: 'http_req_failed', expr: 'rate<0.5', ok: true, actual: 0 },
    ]);
  });

  it('validate explains a broken scenario with file:line (exit 104)', async () => {
    const file = join(dir, 'broken.yaml');
    writeFileSync(file, 'executor: constant-arrival-rate\nrate: 10\nduraton: 1s\npreAllocatedVUs: 1\nrequests: [{ operation: send }]\n');
    const result = await runCli(['validate', file]);
    expect(result.code).toBe(104);
    expect(result.stderr).toContain('broken.yaml:3:1: duraton: unknown key "duraton" (did you mean "duration"?)');
    const load = await runCli(['load', '--scenario', file, '--out', join(dir, 'none')]);
    expect(load.code).toBe(104);
    expect(existsSync(join(dir, 'none'))).toBe(false);
  });
});

describe('harness capacity (CLI)', () => {
  it('steps the rate up against the embedded target and writes the curve with the sustainable rate it measured', async () => {
    const out = join(dir, 'capacity');
    const result = await runCli(['capacity', '--scenario', 'smoke', '--slo', 'p(99)<500', '--start', '10', '--max', '40', '--step-duration', '1s', '--out', out, '--no-progress'], { timeoutMs: 120_000 });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const [runId] = readdirSync(out);
    const report = JSON.parse(readFileSync(join(out, runId!, 'report.json'), 'utf8')) as { scenarios: Array<{ capacity?: { steps: Array<{ rate: number; ok: boolean }> } }> };
    expect(reportIssues(report)).toEqual([]);
    const steps = report.scenarios[0]!.capacity!.steps;
    // Steps only within the asked range, each a measured step with its own verdict.
    expect(steps.length).toBeGreaterThan(0);
    for (const step of steps) expect(step.rate).toBeGreaterThanOrEqual(10), expect(step.rate).toBeLessThanOrEqual(40);
  });
});
