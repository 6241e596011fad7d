/**
 * Real k6 (v0.48.0 here) on execution segments, as k6-operator runs a TestRun with `parallelism` 2 and 3, against
 * the reference target on 127.0.0.1; `harness import k6` merges the runners' files into one report. Checked against
 * what the test computes itself from the same files and against k6's own per-runner verdicts:
 *  - merged requests = the sum of the runners' = the number of http_req_duration samples in the files;
 *  - merged p50 / p99 = the nearest-rank percentiles of all samples together, within the stated bound
 *    (1 µs below, 0.1 % + 1 µs above: src/k6/merge.ts PERCENTILE_PRECISION);
 *  - a threshold every runner passes (k6 says so, per runner) fails on the union, and the reverse, and the exit
 *    code follows the union (99), as k6's would;
 *  - the same runs written as CSV merge to the same numbers; a truncated or foreign file is a clear error.
 * The thresholds chosen for the union-vs-runner cases are counters (http_reqs count), because those differ between
 * a runner and the union whatever the machine's speed: a runner sends about 1/N of the arrivals.
 * A flow with a think time: its iteration_duration threshold is judged on k6's own iteration samples — crossed, as
 * k6 says on every runner — while the same limit on the request histogram holds.
 */
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfigFile } from '../../../src/cli/parse-flags.ts';
import { loadConfig } from '../../../src/config/index.ts';
import { exportK6Script } from '../../../src/load/export/k6-script.ts';
import { loadScenarios } from '../../../src/load/scenario/select.ts';
import { reportIssues } from '../../../src/report/report-schema.ts';
import { startReferenceTarget } from '../../../src/target/index.ts';
import { REPO_ROOT, runCli } from '../../helpers/cli.ts';
import { k6, requireK6, runK6, segmentFlags } from '../../helpers/k6.ts';

const dir = mkdtempSync(join(tmpdir(), 'k6-merge-'));
let target: Awaited<ReturnType<typeof startReferenceTarget>> | undefined;

// 30 arrivals/s for 3 s: about 90 requests, about 90/N per runner.
const SCENARIO = `description: merge test, 30/s for 3 s
executor: constant-arrival-rate
rate: 30
timeUnit: 1s
duration: 3s
preAllocatedVUs: 10
maxVUs: 30
credential: loadKey
requests:
  - name: send
    operation: send
    weight: 1
    body: { to: '{{phone}}', type: text, text: { body: 'merge {{seq}}' } }
  - name: list
    operation: list
    weight: 2
thresholds:
  http_reqs: ['count<70', 'count>60']
  http_req_failed: ['rate<0.01']
  http_req_duration: ['p(99)<5000']
`;
const scenarioFile = join(dir, 'merge.yaml');

// A flow whose iterations last more than 300 ms (a think time) while each request takes a few ms: the same limit
// holds on http_req_duration and is crossed on iteration_duration.
const FLOW = `description: iteration test, 10/s for 2 s, 300 ms think time
executor: constant-arrival-rate
rate: 10
timeUnit: 1s
duration: 2s
preAllocatedVUs: 10
maxVUs: 20
credential: loadKey
flow:
  steps:
    - name: first
      operation: list
      expectStatus: [200]
      think: 300ms
    - name: second
      operation: list
      expectStatus: [200]
thresholds:
  iteration_duration: ['p(95)<250']
  http_req_duration: ['p(95)<250']
  iterations: ['count>5']
`;
const flowFile = join(dir, 'flow.yaml');

beforeAll(async () => {
  if (!k6.path) return;
  writeFileSync(scenarioFile, SCENARIO);
  writeFileSync(flowFile, FLOW);
  target = await startReferenceTarget({ host: '127.0.0.1', port: 0 });
  const exported = await runCli(['export', 'k6', '--scenario', scenarioFile, '--out', join(dir, 'merge.k6.js')]);
  expect(exported.code, exported.stderr).toBe(0);
  // The flow's script in-process, composed as `harness export k6 --scenario FILE` composes it (the CLI's path is
  // the line above): what this file tests is the merge of what k6 wrote.
  const [flow] = loadScenarios([flowFile], {}, REPO_ROOT);
  const config = loadConfig(resolveConfigFile(undefined, REPO_ROOT), { env: process.env });
  writeFileSync(join(dir, 'flow.k6.js'), exportK6Script(flow!, { api: config.api, sourceLabel: flowFile, scenarioRef: flowFile, language: 'js' }));
}, 120_000);
afterAll(async () => {
  await target?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Every value of one metric in an NDJSON file (gzip'd), read the simple way. */
function durations(file: string, metric = 'http_req_duration'): number[] {
  return gunzipSync(readFileSync(file))
    .toString('utf8')
    .split('\n')
    .filter((l) => l.startsWith(`{"metric":"${metric}","type":"Point"`))
    .map((l) => (JSON.parse(l) as { data: { value: number } }).data.value);
}

/** Nearest-rank percentile (the rank HDR reports): the sample of rank max(1, ceil(p/100 × n)). */
function nearestRank(sorted: number[], p: number): number {
  return sorted[Math.max(1, Math.ceil((p / 100) * sorted.length)) - 1]!;
}

const within = (merged: number, exact: number): void => {
  expect(merged).toBeGreaterThanOrEqual(exact - 0.001);
  expect(merged).toBeLessThanOrEqual(exact * 1.001 + 0.001);
};

describe.each([2, 3])('%i k6 runners on execution segments, merged by harness import k6', (n) => {
  it.skipIf(k6.missing === 'skip')(`merges exactly and judges the thresholds once, on the union (${n} runners)`, async (ctx) => {
    requireK6(ctx);
    const runDir = join(dir, `n${n}`);
    const runs = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        runK6(
          [
            '--quiet',
            ...segmentFlags(i + 1, n),
            '--tag', `instance_id=${i + 1}`,
            '--out', `json=${runDir}-${i + 1}.json.gz`,
            '--out', `csv=${runDir}-${i + 1}.csv`,
            '--summary-export', `${runDir}-${i + 1}.summary.json`,
            join(dir, 'merge.k6.js'),
          ],
          { BASE_URL: target!.baseUrl, HARNESS_LOAD_KEY: target!.credentials.apiKeys.load },
        ),
      ),
    );
    const files = runs.map((_, i) => `${runDir}-${i + 1}.json.gz`);
    // k6's own verdict per runner: each sent about 90/n < 70 requests, so count<70 held and count>60 was crossed
    // on every runner (exit 99 from each k6).
    const own = runs.map((r, i) => {
      expect(r.code, `k6 runner ${i + 1}: ${r.stderr.slice(-2000)}`).toBe(99);
      return JSON.parse(readFileSync(`${runDir}-${i + 1}.summary.json`, 'utf8')) as { metrics: Record<string, { count?: number; thresholds?: Record<string, boolean> }> };
    });
    for (const s of own) expect(s.metrics.http_reqs!.thresholds).toEqual({ 'count<70': false, 'count>60': true });

    const out = join(runDir, 'report.json');
    const merged = await runCli(['import', 'k6', ...files, '--scenario', scenarioFile, '--out', out], { timeoutMs: 120_000 });
    // On the union (about 90 requests): count<70 is crossed (every runner passed it) and count>60 holds (every runner failed it).
    expect(merged.code, merged.stderr).toBe(99);
    expect(merged.stderr).toBe('');
    const report = JSON.parse(readFileSync(out, 'utf8'));
    expect(reportIssues(report)).toEqual([]);
    const s = report.scenarios[0];
    const byExpr = Object.fromEntries(s.thresholds.map((t: { metric: string; expr: string; ok: boolean }) => [`${t.metric} ${t.expr}`, t.ok]));
    expect(byExpr).toEqual({ 'http_reqs count<70': false, 'http_reqs count>60': true, 'http_req_failed rate<0.01': true, 'http_req_duration p(99)<5000': true });
    // The per-runner breakdown judges each runner as k6 itself did.
    for (const [i, r] of s.k6.runners.entries()) {
      expect(r.instanceId).toBe(String(i + 1));
      const alone = Object.fromEntries(r.thresholds.filter((t: { metric: string }) => t.metric === 'http_reqs').map((t: { expr: string; ok: boolean }) => [t.expr, t.ok]));
      expect(alone).toEqual({ 'count<70': true, 'count>60': false });
      expect(r.requests).toBe(own[i]!.metrics.http_reqs!.count);
    }

    // Requests: the sum of the runners', and every sample in the files.
    const all = files.flatMap((f) => durations(f));
    const perRunner = s.k6.runners.map((r: { requests: number }) => r.requests);
    expect(s.requests).toBe(perRunner.reduce((a: number, b: number) => a + b, 0));
    expect(s.requests).toBe(all.length);
    expect(s.requests).toBe(own.reduce((a, o) => a + (o.metrics.http_reqs!.count ?? 0), 0));
    // About 90 arrivals in all: each one sent, or dropped by k6 where a busy machine could not start it in time.
    const dropped = own.reduce((a, o) => a + (o.metrics.dropped_iterations?.count ?? 0), 0);
    expect(s.requests + dropped).toBeGreaterThanOrEqual(85);
    expect(Object.values(s.statusCodes as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(s.requests);
    expect(s.byName.send.requests + s.byName.list.requests).toBe(s.requests);

    // Percentiles: those of all samples together, within the stated bound.
    const sorted = [...all].sort((a, b) => a - b);
    within(s.latency.p50, nearestRank(sorted, 50));
    within(s.latency.p99, nearestRank(sorted, 99));
    expect(s.k6.precision.relative).toBe(0.001);

    // The same runs' CSV files merge to the same numbers.
    const csvOut = join(runDir, 'csv', 'report.json');
    const csv = await runCli(['import', 'k6', ...runs.map((_, i) => `${runDir}-${i + 1}.csv`), '--scenario', scenarioFile, '--out', csvOut], { timeoutMs: 120_000 });
    expect(csv.code, csv.stderr).toBe(99);
    const c = JSON.parse(readFileSync(csvOut, 'utf8')).scenarios[0];
    expect({ requests: c.requests, statusCodes: c.statusCodes, p50: c.latency.p50, p99: c.latency.p99 }).toEqual({ requests: s.requests, statusCodes: s.statusCodes, p50: s.latency.p50, p99: s.latency.p99 });

    if (n === 2) {
      // A file cut short (a runner killed, a copy interrupted) and a foreign file: exit 104, file and line named.
      const whole = readFileSync(files[0]!);
      const cut = join(dir, 'cut.json.gz');
      writeFileSync(cut, whole.subarray(0, Math.floor(whole.length * 0.6)));
      const truncated = await runCli(['import', 'k6', cut, files[1]!, '--scenario', scenarioFile, '--out', join(dir, 'cut', 'report.json')]);
      expect(truncated.code).toBe(104);
      expect(truncated.stderr).toMatch(new RegExp(`${cut.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+: .*truncated`));
      const plainCut = join(dir, 'cut.json');
      const text = gunzipSync(whole).toString('utf8');
      writeFileSync(plainCut, text.slice(0, text.lastIndexOf('{"metric":"http_req_duration"') + 60));
      const plain = await runCli(['import', 'k6', plainCut, '--scenario', scenarioFile, '--out', join(dir, 'cut2', 'report.json')]);
      expect(plain.code).toBe(104);
      expect(plain.stderr).toMatch(/cut\.json:\d+: .*(cut short|truncated)/);
      const foreign = join(dir, 'foreign.txt');
      writeFileSync(foreign, 'hello\nworld\n');
      const other = await runCli(['import', 'k6', foreign, files[1]!, '--scenario', scenarioFile, '--out', join(dir, 'f', 'report.json')]);
      expect(other.code).toBe(104);
      expect(other.stderr).toContain(`${foreign}:1: not k6 output`);
      // Two runs' files of the same runner: refused, as they would count twice.
      const twice = await runCli(['import', 'k6', files[0]!, files[0]!, '--scenario', scenarioFile, '--out', join(dir, 't', 'report.json')]);
      expect(twice.code).toBe(104);
      expect(twice.stderr).toContain('runner instance_id 1 is also in');
      for (const r of [truncated, plain, other, twice]) expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  }, 240_000);
});

describe('a flow\'s iteration_duration, merged from 2 k6 runners', () => {
  it.skipIf(k6.missing === 'skip')('is judged on k6\'s own iteration samples: crossed where the request histogram holds the same limit', async (ctx) => {
    requireK6(ctx);
    const runDir = join(dir, 'flow');
    const runs = await Promise.all(
      [1, 2].map((i) =>
        runK6(
          ['--quiet', ...segmentFlags(i, 2), '--tag', `instance_id=${i}`, '--out', `json=${runDir}-${i}.json.gz`, '--out', `csv=${runDir}-${i}.csv`, '--summary-export', `${runDir}-${i}.summary.json`, join(dir, 'flow.k6.js')],
          { BASE_URL: target!.baseUrl, HARNESS_LOAD_KEY: target!.credentials.apiKeys.load },
        ),
      ),
    );
    // k6 itself, per runner: iteration_duration p(95)<250 crossed (its iterations include the 300 ms think time).
    for (const [i, r] of runs.entries()) {
      expect(r.code, `k6 runner ${i + 1}: ${r.stderr.slice(-2000)}`).toBe(99);
      const own = JSON.parse(readFileSync(`${runDir}-${i + 1}.summary.json`, 'utf8')) as { metrics: Record<string, { thresholds?: Record<string, boolean> }> };
      expect(own.metrics.iteration_duration!.thresholds).toEqual({ 'p(95)<250': true });
    }
    const files = [1, 2].map((i) => `${runDir}-${i}.json.gz`);
    const out = join(runDir, 'report.json');
    const merged = await runCli(['import', 'k6', ...files, '--scenario', flowFile, '--out', out], { timeoutMs: 120_000 });
    expect(merged.code, merged.stderr).toBe(99);
    const report = JSON.parse(readFileSync(out, 'utf8'));
    expect(reportIssues(report)).toEqual([]);
    const s = report.scenarios[0];
    const byExpr = Object.fromEntries(s.thresholds.map((t: { metric: string; expr: string }) => [`${t.metric} ${t.expr}`, t])) as Record<string, { ok: boolean; actual: number; notEvaluated?: string }>;
    // The request histogram holds the limit; the iterations, k6's own samples of them, cross it.
    expect(byExpr['http_req_duration p(95)<250']!.ok).toBe(true);
    expect(s.latency.p95).toBeLessThan(250);
    const iteration = byExpr['iteration_duration p(95)<250']!;
    expect(iteration.ok).toBe(false);
    expect(iteration.notEvaluated).toBeUndefined();
    // The union's value is the nearest-rank p95 of every runner's iteration_duration samples, within the stated bound.
    const samples = files.flatMap((f) => durations(f, 'iteration_duration')).sort((a, b) => a - b);
    expect(samples.length).toBeGreaterThan(5);
    within(iteration.actual, nearestRank(samples, 95));
    expect(iteration.actual).toBeGreaterThanOrEqual(300);
    expect(byExpr['iterations count>5']).toMatchObject({ ok: true, actual: samples.length });
    expect(s.iterations.count).toBe(samples.length);
    expect(merged.stdout).toMatch(/✗ iteration_duration p\(95\)<250 \(union: \d+/);

    // The CSV files: the same verdicts and values.
    const csvOut = join(runDir, 'csv', 'report.json');
    const csv = await runCli(['import', 'k6', ...[1, 2].map((i) => `${runDir}-${i}.csv`), '--scenario', flowFile, '--out', csvOut], { timeoutMs: 120_000 });
    expect(csv.code, csv.stderr).toBe(99);
    const c = JSON.parse(readFileSync(csvOut, 'utf8')).scenarios[0];
    expect(c.thresholds.map((t: { ok: boolean }) => t.ok)).toEqual(s.thresholds.map((t: { ok: boolean }) => t.ok));
    within(c.thresholds.find((t: { metric: string }) => t.metric === 'iteration_duration').actual, nearestRank(samples, 95));

    // The same output without its iteration samples: not evaluated (and failed), never judged on the requests.
    const stripped = join(runDir, 'no-iterations.json');
    writeFileSync(stripped, gunzipSync(readFileSync(files[0]!)).toString('utf8').split('\n').filter((l) => !l.startsWith('{"metric":"iteration')).join('\n'));
    const without = await runCli(['import', 'k6', stripped, '--scenario', flowFile, '--out', join(runDir, 'stripped', 'report.json')], { timeoutMs: 120_000 });
    expect(without.code, without.stderr).toBe(99);
    expect(without.stdout).toContain('✗ iteration_duration p(95)<250 not evaluated: k6 output carries no iteration_duration');
    expect(without.stdout).toContain('✗ iterations count>5 not evaluated: k6 output carries no iterations');
    expect(without.stdout).toMatch(/2 of 3 thresholds not evaluated/);
  }, 240_000);
});
