/**
 * `npm start`'s job end to end: the embedded reference target, every suite, then the smoke scenario
 * (load.scenarios' default), report.json on disk and valid against schemas/report.schema.json.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reportIssues } from '../../../src/report/report-schema.ts';
import { runCli } from '../../helpers/cli.ts';

describe('harness run (embedded reference target)', () => {
  it('exits 0, prints a summary and writes reports/<run-id>/report.json with the stable fields and the smoke scenario', async () => {
    const out = mkdtempSync(join(tmpdir(), 'harness-run-'));
    // Exactly as a user's checkout runs it (`npm start`): the sources through tsx, not the suite's build.
    const result = await runCli(['run', '--out', out], { timeoutMs: 300_000, env: { HARNESS_CLI_ENTRY: '' } });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    // On a loaded machine a SHOULD/PROFILE time judgement may say "could not decide" (a warning, never a failure):
    // the only difference load may make (README "Time-dependent judgements").
    expect(result.stdout).toMatch(/verdict: CERTIFIED(-WITH-WARNINGS)? \(exit 0\) — MUST \d+ passed; SHOULD \d+ passed(, \d+ could not decide)?; PROFILE \d+ passed(, \d+ could not decide)?\n/);
    expect(result.stdout).toMatch(/run conditions: event-loop stalls up to/);
    // README: the verdict is the last line (a CI log's tail).
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines.at(-1)).toMatch(/^verdict: /);
    // Before it, in this order: the run's conditions, the Security block, the ownership line (README).
    const at = (re: RegExp) => lines.findIndex((line) => re.test(line));
    expect(lines.at(-2)).toMatch(/^ownership: /);
    expect(at(/^security \(OWASP API Security Top 10, 2023\): /)).toBeGreaterThan(at(/^run conditions: /));
    expect(at(/^run conditions: /)).toBeGreaterThan(at(/^junit\.xml: /));
    const [runId] = readdirSync(out);
    expect(runId).toMatch(/^\d{8}T\d{6}Z-[0-9a-f]{6}$/);
    const file = join(out, runId!, 'report.json');
    expect(result.stdout).toContain(`report.json: ${file}`);
    const report = JSON.parse(readFileSync(file, 'utf8'));
    expect(report.schemaVersion).toBe(1);
    expect(report.run).toMatchObject({ id: runId, harnessVersion: expect.any(String), target: { baseUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/), embedded: true } });
    expect(Date.parse(report.run.finishedAt)).toBeGreaterThanOrEqual(Date.parse(report.run.startedAt));
    expect(report.verdict).toBe(report.summary.undecided > 0 ? 'certified-with-warnings' : 'certified');
    expect(report.summary.byLevel.MUST.undecided).toBe(0);
    expect(report.checks.length).toBeGreaterThan(0);
    for (const check of report.checks) {
      expect(check).toMatchObject({ id: expect.any(String), suite: expect.any(String), title: expect.any(String), level: expect.stringMatching(/^(MUST|SHOULD|PROFILE)$/), specRef: expect.any(String), status: expect.stringMatching(check.level === 'MUST' ? /^passed$/ : /^(passed|undecided)$/), durationMs: expect.any(Number) });
    }
    expect(report.summary).toMatchObject({ passed: report.checks.length - report.summary.undecided, failed: 0, skipped: 0, errors: 0, byLevel: { MUST: expect.any(Object), SHOULD: expect.any(Object), PROFILE: expect.any(Object) } });
    // The two checks that mostly wait ran beside later suites (src/conformance/beside.ts), and say for how long.
    for (const id of ['auth.jwt.expired-rejected', 'webhooks.deletion.nothing-after']) {
      const waited = report.checks.find((c: { id: string }) => c.id === id);
      expect(waited.besideMs, id).toBeGreaterThan(0);
      expect(waited.besideMs, id).toBeLessThanOrEqual(waited.durationMs);
      expect(result.stdout).toMatch(new RegExp(`${id.replace(/\./g, '\\.')} .*ran beside the checks above\\)`));
    }

    // The throughput part: load.scenarios defaults to ["smoke"], run with the embedded target's loadKey.
    expect(result.stdout).toContain('scenario smoke (constant-arrival-rate)');
    expect(report.scenarios).toHaveLength(1);
    const smoke = report.scenarios[0];
    expect(smoke).toMatchObject({ name: 'smoke', executor: 'constant-arrival-rate', dropped: expect.any(Number), rateLimited: 0, errors: {} });
    expect(smoke.requests).toBeGreaterThan(0);
    expect(smoke.rps).toBeGreaterThan(0);
    for (const key of ['p50', 'p90', 'p95', 'p99', 'p999', 'max']) expect(smoke.latency[key], key).toBeGreaterThan(0);
    expect(smoke.latency.p50).toBeLessThanOrEqual(smoke.latency.p99);
    expect(smoke.percentiles.at(-1)).toEqual({ percentile: 100, latencyMs: smoke.latency.max });
    expect(Object.keys(smoke.byName).sort()).toEqual(['list', 'send', 'webhooks']);
    expect(smoke.thresholds.map((t: { metric: string; expr: string; ok: boolean }) => [t.metric, t.expr, t.ok])).toEqual([
      ['http_req_failed', 'rate<0.01', true],
      ['http_req_duration', 'p(99)<500', true],
      ['dropped_iterations', 'count==0', true],
    ]);
    expect(smoke.timeline.length).toBeGreaterThan(0);
    expect(reportIssues(report)).toEqual([]);
    const junit = readFileSync(join(out, runId!, 'junit.xml'), 'utf8');
    expect(junit).toContain('<testsuite name="scenario.smoke"');
    // JUnit times are the measured ones, each second once: the total is the run's wall time, and the testcases
    // (checks one after another — one that ran beside others less the time they ran too, besideMs — the scenario's
    // run once, the verdict the rest) add up to it, not to a multiple.
    const wallS = (Date.parse(report.run.finishedAt) - Date.parse(report.run.startedAt)) / 1000;
    const rootTime = Number(/<testsuites [^>]*time="([\d.]+)"/.exec(junit)![1]);
    const caseTimes = [...junit.matchAll(/<testcase [^>]*time="([\d.]+)"/g)].map((m) => Number(m[1]));
    const suiteTimes = [...junit.matchAll(/<testsuite [^>]*time="([\d.]+)"/g)].map((m) => Number(m[1]));
    expect(rootTime).toBeCloseTo(wallS, 2);
    expect(Math.abs(caseTimes.reduce((a, b) => a + b, 0) - wallS)).toBeLessThan(0.001 * caseTimes.length + 0.002);
    expect(Math.abs(suiteTimes.reduce((a, b) => a + b, 0) - wallS)).toBeLessThan(0.001 * caseTimes.length + 0.002);
    expect(Number(/<testsuite name="scenario.smoke"[^>]*time="([\d.]+)"/.exec(junit)![1])).toBeCloseTo(smoke.durationMs / 1000, 2);
  }, 330_000); // the whole run: about 20 s, 150 s with load average 20 (runCli allows 300 s)

  it('--no-load runs the suites only', async () => {
    const out = mkdtempSync(join(tmpdir(), 'harness-run-'));
    const result = await runCli(['run', '--suite', 'smoke', '--no-load', '--out', out], { timeoutMs: 60_000 });
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain('scenario smoke');
    const [runId] = readdirSync(out);
    const report = JSON.parse(readFileSync(join(out, runId!, 'report.json'), 'utf8'));
    expect(report.scenarios).toBeUndefined();
  });

  it('--check of two ids: PASSED, 2 of the catalogue selected, not a certification — first in every report', async () => {
    const out = mkdtempSync(join(tmpdir(), 'harness-run-'));
    const result = await runCli(['run', '--check', 'smoke.send-text-message,auth.api-key.unknown-key', '--no-load', '--out', out], { timeoutMs: 60_000 });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^verdict: PASSED — 2 of (\d+) checks selected; not a certification \(exit 0\) — MUST 2 passed;/m);
    const [runId] = readdirSync(out);
    const report = JSON.parse(readFileSync(join(out, runId!, 'report.json'), 'utf8'));
    expect(report.verdict).toBe('selection-passed');
    expect(report.selection).toEqual({ selected: 2, catalogue: expect.any(Number), checks: ['smoke.send-text-message', 'auth.api-key.unknown-key'] });
    expect(report.selection.catalogue).toBeGreaterThan(100);
    const junit = readFileSync(join(out, runId!, 'junit.xml'), 'utf8');
    expect(junit).toMatch(/<testcase classname="harness\.verdict" name="harness run: 2 of \d+ conformance checks: PASSED — 2 of \d+ checks selected; not a certification \(exit 0\)"/);
    const html = readFileSync(join(out, runId!, 'report.html'), 'utf8');
    expect(html).toMatch(/<title>PASSED — 2 of \d+ checks selected; not a certification \(exit 0\)/);
  });

  it('an unreachable target: exit 3, and a report is still written', async () => {
    const out = mkdtempSync(join(tmpdir(), 'harness-run-'));
    const result = await runCli(['run', '--target', 'http://127.0.0.1:9', '--out', out]);
    expect(result.code).toBe(3);
    expect(result.stdout).toContain('run aborted: target http://127.0.0.1:9 is unreachable');
    const [runId] = readdirSync(out);
    const report = JSON.parse(readFileSync(join(out, runId!, 'report.json'), 'utf8'));
    expect(report.run.aborted.code).toBe('HARNESS_ERR_TARGET_UNREACHABLE');
    // Nothing was measured: the run stopped early, so it cannot certify (verdict contract: incomplete), and every
    // file says why in the same words as the exit code.
    expect(report.verdict).toBe('incomplete');
    expect(result.stdout).toContain('verdict: TARGET UNREACHABLE (exit 3)');
    const junit = readFileSync(join(out, runId!, 'junit.xml'), 'utf8');
    expect(junit).toMatch(/<error message="TARGET UNREACHABLE \(exit 3\): [^"]*unreachable[^"]*" type="HARNESS_ERR_TARGET_UNREACHABLE"/);
    expect(readFileSync(join(out, runId!, 'report.html'), 'utf8')).toContain('TARGET UNREACHABLE (exit 3)');
  });
});
