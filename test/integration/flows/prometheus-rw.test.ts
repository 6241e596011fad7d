/**
 * Live metrics against a real Prometheus (Debian's 2.42, installed by test/setup/prometheus.ts when missing):
 * started on 127.0.0.1 with its remote-write receiver on a free port and a temporary storage folder, a short flow
 * scenario run by `harness load --metrics-out prometheus-rw=…` against the embedded target, then Prometheus's
 * HTTP API queried. The request count per name and status equals report.json's exactly; the p99 latency per name,
 * and the p95 / p99 of all requests, equal report.json's (ms there, seconds in Prometheus) to 1e-9 s (float
 * formatting only: both are read from the same HDR histogram); the failed-request rate of all requests equals
 * report.json's http_req_failed. The shipped dashboard's "Failed requests (rate)" and all-requests p99 queries,
 * run on that Prometheus, give the same numbers. A second run against a port nobody listens on finishes with its report complete and
 * every sample counted as not sent.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { ensurePrometheus } from '../../setup/prometheus.ts';
import { runCli } from '../../helpers/cli.ts';
import { closedPort } from '../../helpers/closed-port.ts';
import { speedFreeScenario, writeSpeedFreeSmoke } from '../../helpers/speed-free-scenario.ts';

const REPO = resolve(import.meta.dirname, '../../..');

let prometheus: ChildProcess | undefined;
let problem: string | undefined;
let base = '';
let dir = '';
let promLog = '';

async function waitReady(url: string, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    try {
      if ((await fetch(`${url}/-/ready`)).ok) return true;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'harness-prom-'));
  const found = ensurePrometheus();
  if (!found.path) {
    problem = found.problem;
    return;
  }
  const port = await closedPort();
  base = `http://127.0.0.1:${port}`;
  writeFileSync(join(dir, 'prometheus.yml'), 'global:\n  scrape_interval: 1m\n');
  prometheus = spawn(found.path, [`--config.file=${join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`, '--web.enable-remote-write-receiver'], { stdio: ['ignore', 'ignore', 'pipe'] });
  prometheus.stderr?.on('data', (chunk: Buffer) => {
    promLog = (promLog + chunk.toString()).slice(-4000);
  });
  if (!(await waitReady(base, 30_000))) problem = `prometheus did not become ready on ${base}: ${promLog.slice(-1000)}`;
}, 900_000);

afterAll(async () => {
  if (prometheus && prometheus.exitCode === null) {
    const exited = new Promise((r) => prometheus!.once('exit', r));
    prometheus.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    if (prometheus.exitCode === null) prometheus.kill('SIGKILL');
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The CLI run in the test's folder, its stdout and stderr together in `out`. */
async function harness(args: string[]): Promise<{ code: number | null; out: string }> {
  const { code, stdout, stderr } = await runCli(args, { cwd: dir, timeoutMs: 120_000 });
  return { code, out: stdout + stderr };
}

function lastReport(outDir: string): Record<string, any> {
  const runs = readdirSync(outDir).sort();
  return JSON.parse(readFileSync(join(outDir, runs[runs.length - 1]!, 'report.json'), 'utf8'));
}

async function query(promql: string): Promise<Array<{ metric: Record<string, string>; value: [number, string] }>> {
  const res = await fetch(`${base}/api/v1/query?query=${encodeURIComponent(promql)}`);
  const body = (await res.json()) as { status: string; data: { result: Array<{ metric: Record<string, string>; value: [number, string] }> } };
  expect(body.status).toBe('success');
  return body.data.result;
}

describe('live metrics to a real Prometheus (remote write)', () => {
  it('request counts per name and status, p99 per name, and all requests\' p95 / p99 and failed rate equal report.json, as the dashboard reads them', async () => {
    expect(problem, problem).toBeUndefined();
    const scenario = join(dir, 'journey.yaml');
    // The shipped sender journey, shortened (3 s at 10 iterations/s), with a last step that always fails (a path
    // the target does not have), so the run's failed-request rate is neither 0 nor any one name's. Its speed
    // threshold is left out: a loaded machine crosses it honestly (exit 99), and this test is about the metrics.
    const journey = parse(speedFreeScenario('sender-journey')) as { duration: string; flow: { steps: unknown[] }; thresholds: Record<string, string[]> };
    journey.duration = '3s';
    journey.flow.steps.push({ name: 'missing', method: 'GET', path: '/no-such-path', expectStatus: [200] });
    journey.thresholds.http_req_failed = ['rate<1'];
    writeFileSync(scenario, stringify(journey));
    const out = join(dir, 'reports');
    const run = await harness(['load', '--scenario', scenario, '--out', out, '--no-progress', '--metrics-out', `prometheus-rw=${base}/api/v1/write`]);
    expect(run.code, run.out).toBe(0);
    const report = lastReport(out);
    const result = report.scenarios[0];
    expect(result.metricsOutput.samplesNotSent, JSON.stringify(result.metricsOutput)).toBe(0);
    expect(result.metricsOutput.pushes).toBeGreaterThanOrEqual(2);
    const testid = result.metricsOutput.testid as string;
    expect(testid).toBe(report.run.id);
    // Prometheus's instant query answers the newest sample of each series: the scenario's final push.
    const counts = await query(`k6_http_reqs_total{testid="${testid}"}`);
    const fromProm: Record<string, Record<string, number>> = {};
    for (const r of counts) (fromProm[r.metric.name!] ??= {})[r.metric.status!] = Number(r.value[1]);
    const fromReport = Object.fromEntries(Object.entries(result.byName as Record<string, { statusCodes: Record<string, number> }>).map(([n, v]) => [n, v.statusCodes]));
    expect(fromProm).toEqual(fromReport);
    for (const r of counts) expect(r.metric.scenario).toBe(result.name);
    const p99 = await query(`k6_http_req_duration_p99{testid="${testid}", name!=""}`);
    expect(p99.length).toBe(Object.keys(result.byName).length);
    for (const r of p99) expect(Math.abs(Number(r.value[1]) - result.byName[r.metric.name!].latency.p99 / 1000)).toBeLessThan(1e-9);
    const iterations = await query(`k6_iterations_total{testid="${testid}"}`);
    expect(Number(iterations[0]?.value[1])).toBe(result.iterations.count);

    // All requests, across names (the series without a name label): report.json's p95 / p99 and failed rate.
    const one = async (promql: string): Promise<number> => {
      const r = await query(promql);
      expect(r.length, promql).toBe(1);
      return Number(r[0]!.value[1]);
    };
    expect(Math.abs((await one(`k6_http_req_duration_p99{testid="${testid}", name=""}`)) - result.latency.p99 / 1000)).toBeLessThan(1e-9);
    expect(Math.abs((await one(`k6_http_req_duration_p95{testid="${testid}", name=""}`)) - result.latency.p95 / 1000)).toBeLessThan(1e-9);
    const failed = result.thresholds.find((t: { metric: string }) => t.metric === 'http_req_failed').actual as number;
    expect(failed).toBeGreaterThan(0);
    expect(failed).toBeLessThan(1);
    expect(result.byName.missing.requests).toBeGreaterThan(0);
    const failedRate = await one(`k6_http_req_failed_rate{testid="${testid}", name=""}`);
    expect(Math.abs(failedRate - failed)).toBeLessThan(1e-6);
    // The worst name's rate (the missing step: 1) is not the run's.
    expect(Math.abs((await one(`max(k6_http_req_failed_rate{testid="${testid}"})`)) - failedRate)).toBeGreaterThan(0.1);

    // The shipped dashboard's queries, with its variables set to this run: the run's failed rate and p99 / p95.
    const dashboard = JSON.parse(readFileSync(join(REPO, 'dashboards', 'harness-load.json'), 'utf8')) as { panels: Array<{ title: string; targets: Array<{ expr: string }> }> };
    const panel = (title: RegExp) => dashboard.panels.find((p) => title.test(p.title))!;
    const bound = (expr: string) => expr.replaceAll('$testid', testid).replaceAll('$scenario', result.name);
    expect(Math.abs((await one(bound(panel(/^Failed requests \(rate\)$/).targets[0]!.expr))) - failed)).toBeLessThan(1e-6);
    const allLatency = panel(/all requests/).targets.map((t) => bound(t.expr));
    expect(allLatency).toHaveLength(2);
    expect(Math.abs((await one(allLatency[0]!)) - result.latency.p99 / 1000)).toBeLessThan(1e-9);
    expect(Math.abs((await one(allLatency[1]!)) - result.latency.p95 / 1000)).toBeLessThan(1e-9);
  }, 300_000);

  it('an endpoint nobody listens on: the run and its report are complete, every sample counted as not sent', async () => {
    expect(problem, problem).toBeUndefined();
    const closed = await closedPort();
    const out = join(dir, 'reports-down');
    // The shipped smoke load without its speed thresholds (`--scenario smoke` finds <dir>/scenarios/smoke.yaml first).
    writeSpeedFreeSmoke(dir);
    const run = await harness(['load', '--scenario', 'smoke', '--duration', '2s', '--out', out, '--no-progress', '--metrics-out', `prometheus-rw=http://127.0.0.1:${closed}/api/v1/write`]);
    expect(run.code, run.out).toBe(0);
    const m = lastReport(out).scenarios[0].metricsOutput;
    expect(m.pushes).toBe(0);
    expect(m.failedPushes).toBeGreaterThan(0);
    expect(m.samplesNotSent).toBeGreaterThan(0);
    expect(m.lastError).toMatch(/ECONNREFUSED/);
    expect(lastReport(out).scenarios[0].requests).toBeGreaterThan(0);
    expect(run.out).toMatch(/samples could not be sent/);
  }, 300_000);
});
