/**
 * --workers on real servers (127.0.0.1, port 0): exact merging, divided VUs, unique {{seq}} across workers,
 * abortOnFail over merged data, warm-up not counted. Counts only, never speed.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../../src/config/defaults.ts';
import { decodeHistogram } from '../../../src/load/metrics/histogram.ts';
import { runScenario } from '../../../src/load/run-scenario.ts';
import type { Scenario } from '../../../src/load/scenario/types.ts';
import { runInWorkers } from '../../../src/load/workers/pool.ts';
import { scenarioFromYaml, scenarioOf } from '../../helpers/load-scenario.ts';

const api = defaultConfig().api;

/** Counts what it receives: requests by path, connections, most requests in progress at once. */
let server: Server;
let base: string;
const seen = { requests: 0, connections: 0, inFlight: 0, maxInFlight: 0, paths: [] as string[], status: 200, delayMs: 0 };

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.requests++;
    seen.paths.push(req.url ?? '');
    seen.inFlight++;
    seen.maxInFlight = Math.max(seen.maxInFlight, seen.inFlight);
    setTimeout(() => {
      seen.inFlight--;
      res.statusCode = seen.status;
      res.end('{}');
    }, seen.delayMs);
  });
  server.on('connection', () => seen.connections++);
  // Idle warm connections must outlive a slow worker start on a busy machine (Node's default is 5 s).
  server.keepAliveTimeout = 120_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  Object.assign(seen, { requests: 0, connections: 0, inFlight: 0, maxInFlight: 0, paths: [], status: 200, delayMs: 0 });
  server.closeAllConnections();
});

describe('--workers', () => {
  it('open model on 2 workers: every arrival once, merged exactly, warm-up not counted, {{seq}} unique', async () => {
    const s = scenarioOf({ name: 'two', rate: 60, duration: '1s', preAllocatedVUs: 4, credential: 'none', requests: [{ name: 'a', path: '/a/{{seq}}', weight: 2 }, { name: 'b', path: '/b/{{seq}}' }] });
    const { result, recorder } = await runScenario({ scenario: s, baseUrl: base, api, credentials: {}, workers: 2 });
    expect(result.workers).toBe(2);
    // Warm-up: 2 rounds of one request per preallocated connection (4 in all), reported and not counted.
    expect(result.warmUp).toMatchObject({ requests: 8, errors: 0, connections: 4 });
    expect(seen.requests).toBe(result.requests + result.warmUp!.requests);
    expect(result.requests + result.dropped).toBe(60);
    expect(result.byName.a!.requests + result.byName.b!.requests).toBe(result.requests);
    expect(result.statusCodes).toEqual({ '200': result.requests });
    // Merged histograms hold every request, overall and per name; the timeline adds up to the total.
    expect(decodeHistogram(result.histograms!.all).totalCount).toBe(result.requests);
    expect(recorder.histogram('a').totalCount + recorder.histogram('b').totalCount).toBe(result.requests);
    expect(result.timeline.reduce((n, p) => n + p.requests, 0)).toBe(result.requests);
    // {{seq}}: worker i hands out i+1, i+1+W …, so no value repeats across workers (warm-up included).
    const seqs = seen.paths.map((p) => p.split('/')[2]);
    expect(new Set(seqs).size).toBe(seqs.length);
  });

  it('open model on 2 workers with a paced lead: it goes on until the common t0, and none of it is counted', async () => {
    const s = scenarioOf({ name: 'lead', rate: 400, duration: '1s', preAllocatedVUs: 4, maxVUs: 20, credential: 'none', requests: [{ path: '/x/{{seq}}' }] });
    const { result, recorder } = await runScenario({ scenario: s, baseUrl: base, api, credentials: {}, workers: 2 });
    // Per worker: 200 planned arrivals, a warm-up of 20 = two rounds of 2, then a lead at 200/s until the go.
    expect(result.warmUp!.connections).toBe(4);
    expect(result.warmUp!.requests).toBeGreaterThan(8);
    expect(result.warmUp!.errors).toBe(0);
    expect(result.requests + result.dropped).toBe(400);
    expect(seen.requests).toBe(result.requests + result.warmUp!.requests);
    expect(recorder.histogram().totalCount).toBe(result.requests);
    expect(result.timeline.reduce((n, p) => n + p.requests, 0)).toBe(result.requests);
    const seqs = seen.paths.map((p) => p.split('/')[2]);
    expect(new Set(seqs).size).toBe(seqs.length);
  });

  it('divides connections: 2 workers with maxVUs 4 open 4 connections and never have more than 4 requests in flight', async () => {
    seen.delayMs = 40;
    const s = scenarioOf({ name: 'divided', rate: 200, duration: '1s', preAllocatedVUs: 4, maxVUs: 4, credential: 'none', requests: [{ path: '/x' }] });
    const { result } = await runScenario({ scenario: s, baseUrl: base, api, credentials: {}, workers: 2 });
    expect(seen.connections).toBe(4);
    expect(seen.maxInFlight).toBeLessThanOrEqual(4);
    // 4 slots at 40 ms each cannot carry 200/s: the rest are dropped, not queued.
    expect(result.dropped).toBeGreaterThan(0);
    expect(result.requests + result.dropped).toBe(200);
  });

  it('closed model on 2 workers: the VUs are divided (3 = 2 + 1), every answer merged', async () => {
    seen.delayMs = 5;
    const s = scenarioOf({ name: 'closed', executor: 'per-vu-iterations', vus: 3, iterations: 4, maxDuration: '20s', credential: 'none', requests: [{ path: '/c' }] });
    const { result } = await runScenario({ scenario: s, baseUrl: base, api, credentials: {}, workers: 2 });
    expect(result.workers).toBe(2);
    // 3 VUs × 4 iterations, not 2 workers × 3 VUs × 4.
    expect(result.requests).toBe(12);
    expect(result.statusCodes).toEqual({ '200': 12 });
    expect(seen.requests).toBe(12 + result.warmUp!.requests);
    expect(result.warmUp!.connections).toBe(3);
  });

  /** 50 arrivals/s for up to 60 s on two workers, their live view read every 200 ms, until `threshold` (a YAML line) aborts. */
  const abortingRun = (name: string, vus: number, path: string, threshold: string) =>
    runScenario({
      scenario: scenarioFromYaml(`
name: ${name}
executor: constant-arrival-rate
rate: 50
duration: 60s
preAllocatedVUs: ${vus}
credential: none
warmUp: false
requests: [{ path: ${path} }]
thresholds:
  ${threshold}
`),
      baseUrl: base,
      api,
      credentials: {},
      workers: 2,
      monitorEveryMs: 200,
    });

  it('abortOnFail over the merged data stops every worker', async () => {
    seen.status = 500;
    const outcome = await abortingRun('failing', 4, '/f', "http_req_failed: [{ threshold: 'rate<0.5', abortOnFail: true }]");
    expect(outcome.abortedBy).toMatchObject({ metric: 'http_req_failed', expr: 'rate<0.5' });
    expect(outcome.result.thresholds[0]).toMatchObject({ ok: false });
    expect(outcome.result.warmUp).toBeUndefined();
    // Stopped long before the 3000 arrivals of 60 s; the merged result holds both workers' failures.
    expect(outcome.result.requests).toBeGreaterThan(0);
    expect(outcome.result.requests).toBeLessThan(3000);
    expect(outcome.result.statusCodes).toEqual({ '500': outcome.result.requests });
    expect(outcome.notes.join('\n')).toMatch(/stopped early: threshold http_req_failed/);
  });

  it('abortOnFail on a latency percentile reads the workers’ merged totals', async () => {
    // Every answer takes at least 40 ms, so p(99) < 20 fails from the first answer on, however fast the machine.
    seen.delayMs = 40;
    const outcome = await abortingRun('slow', 8, '/s', "http_req_duration: [{ threshold: 'p(99)<20', abortOnFail: true }]");
    expect(outcome.abortedBy).toMatchObject({ metric: 'http_req_duration', expr: 'p(99)<20' });
    expect(outcome.result.requests).toBeGreaterThan(0);
    expect(outcome.result.requests).toBeLessThan(3000);
    expect(outcome.result.latency.p50).toBeGreaterThanOrEqual(40);
  });

  it('2 workers sharing 1 core: each paces coarser, every arrival still runs once, and the run says why', async () => {
    const s = scenarioOf({ name: 'shared', rate: 40, duration: '1s', preAllocatedVUs: 4, credential: 'none', warmUp: false, requests: [{ path: '/s/{{seq}}' }] });
    const run = runInWorkers({ scenario: s, baseUrl: base, api, credentials: {}, workers: 2, names: ['shared'], signal: new AbortController().signal, seed: 1, cores: 1 });
    const { recorder, notes } = await run.finished;
    expect(notes[0]).toMatch(/^2 workers on 1 core\(s\) this process may use: each worker's pacer wakes at most every 0\.4 ms/);
    expect(recorder.counts().requests + recorder.dropped).toBe(40);
    expect(seen.requests).toBe(recorder.counts().requests);
    expect(new Set(seen.paths).size).toBe(seen.paths.length);
  });
});
