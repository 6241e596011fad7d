/**
 * One lifecycle for every command (src/job/session.ts): against a port that refuses connections, `load` and
 * `capacity` alike send nothing past the preflight, write their report files saying the target was unreachable,
 * and end with exit 3 and an "error:" line.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { configFromObject } from '../../../src/config/index.ts';
import { ExitCode } from '../../../src/errors/exit-codes.ts';
import { runCapacityJob } from '../../../src/job/capacity-job.ts';
import { runLoadJob } from '../../../src/job/load-job.ts';
import { loadScenarios } from '../../../src/load/scenario/select.ts';
import { parseExpression } from '../../../src/load/thresholds/parse.ts';
import { closedPort } from '../../helpers/closed-port.ts';

const dir = mkdtempSync(join(tmpdir(), 'harness-session-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function unreachableConfig(name: string) {
  const port = await closedPort();
  return configFromObject({ target: { baseUrl: `http://127.0.0.1:${port}`, timeoutMs: 600 }, report: { outDir: join(dir, name) } });
}

function expectUnreachableReport(file: string, lines: string[]): void {
  for (const name of ['report.json', 'report.html', 'junit.xml']) expect(existsSync(join(file, '..', name))).toBe(true);
  const report = JSON.parse(readFileSync(file, 'utf8')) as { run: { aborted?: { code: string } }; checks: unknown[] };
  expect(report.run.aborted?.code).toBe('HARNESS_ERR_TARGET_UNREACHABLE');
  expect(report.checks).toEqual([]);
  expect(lines.some((line) => /^error: target http:\/\/127\.0\.0\.1:\d+ is unreachable/.test(line))).toBe(true);
}

describe('the run session against an unreachable target', () => {
  it('harness load: a report that says so, exit 3', async () => {
    const lines: string[] = [];
    const outcome = await runLoadJob({ config: await unreachableConfig('load'), scenarios: loadScenarios(['smoke'], { duration: '1s' }), workers: 1, log: (l) => lines.push(l) });
    expect(outcome.exitCode).toBe(ExitCode.TargetUnreachable);
    expect(outcome.report.scenarios).toEqual([]);
    expectUnreachableReport(outcome.file, lines);
  });

  it('harness capacity: a report that says so, exit 3, no step measured', async () => {
    const lines: string[] = [];
    const [scenario] = loadScenarios(['smoke'], { duration: '1s' });
    const slo = parseExpression('p(99)<500', 'http_req_duration');
    if ('problem' in slo) throw new Error(slo.problem);
    const outcome = await runCapacityJob({
      config: await unreachableConfig('capacity'),
      scenario: scenario!,
      slo: { expr: 'p(99)<500', ...slo },
      errorBudget: 0.01,
      start: 10,
      max: 20,
      stepDurationMs: 1000,
      workers: 1,
      log: (l) => lines.push(l),
    });
    expect(outcome.exitCode).toBe(ExitCode.TargetUnreachable);
    expect(outcome.result).toBeUndefined();
    expect(outcome.report.scenarios).toBeUndefined();
    expectUnreachableReport(outcome.file, lines);
  });
});
