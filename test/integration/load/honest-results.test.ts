/**
 * Honest results on real servers (127.0.0.1, port 0): timed-out requests count in latency, a blocked generator
 * is named, the warm-up is reported and never counted. Counts and markers only, never speed.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../../src/config/defaults.ts';
import { TICK_MS } from '../../../src/load/engine/generator-probe.ts';
import { formatScenarioSummary } from '../../../src/load/print-summary.ts';
import type { Recorder } from '../../../src/load/metrics/recorder.ts';
import type { ProgressSink } from '../../../src/load/progress.ts';
import type { ScenarioResult } from '../../../src/load/result.ts';
import { runScenario } from '../../../src/load/run-scenario.ts';
import type { Scenario } from '../../../src/load/scenario/types.ts';
import { scenarioOf } from '../../helpers/load-scenario.ts';

const api = defaultConfig().api;

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('a target that never answers', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    // Reads each request and never answers.
    server = createServer(() => {});
    base = await listen(server);
  });
  afterAll(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('open model: every request is failed and in http_req_duration at its timeout, so the latency threshold crosses', async () => {
    const s = scenarioOf({ name: 'silent', rate: 10, duration: '1s', preAllocatedVUs: 10, timeout: '300ms', credential: 'none', requests: [{ path: '/never' }], thresholds: { http_req_duration: ['p(99)<250'], http_req_failed: ['rate<0.01'] } });
    const { result } = await runScenario({ scenario: s, baseUrl: base, api, credentials: {} });
    expect(result.requests + result.dropped).toBe(10);
    expect(result.errors).toEqual({ UND_ERR_HEADERS_TIMEOUT: result.requests });
    // From the intended send time to the moment the request was given up: never less than the timeout.
    expect(result.latency.p50).toBeGreaterThanOrEqual(299);
    expect(result.latency.p99).toBeGreaterThanOrEqual(299);
    const duration = result.thresholds.find((t) => t.metric === 'http_req_duration')!;
    expect(duration.ok).toBe(false);
    expect(duration.actual).toBeGreaterThanOrEqual(299);
    expect(result.thresholds.find((t) => t.metric === 'http_req_failed')).toMatchObject({ ok: false, actual: 1 });
    // The warm-up's one round timed out too: reported, not counted.
    expect(result.warmUp).toMatchObject({ requests: 10, errors: 10, connections: 10 });
  });

  it('closed model: a timed-out request is recorded at the timeout, under its own name', async () => {
    const s = scenarioOf({ name: 'silent-closed', executor: 'constant-vus', vus: 2, duration: '2500ms', timeout: '1s', credential: 'none', warmUp: false, requests: [{ path: '/never' }], thresholds: { http_req_duration: ['p(99)<500'] } });
    const { result } = await runScenario({ scenario: s, baseUrl: base, api, credentials: {} });
    expect(result.requests).toBeGreaterThanOrEqual(2);
    expect(result.errors).toEqual({ UND_ERR_HEADERS_TIMEOUT: result.requests });
    // Never less than the timeout, and recorded at it — not at the time the VU or the run began: the failure is
    // timed from the request's own write to the moment it was given up, which is late by at most the longest stall
    // of this process's event loop, as the run measured it, give or take what that measurement cannot see: the stall
    // probe ticks every TICK_MS and times each tick from the one before, so a stall that began after a tick shows as
    // up to TICK_MS shorter than it was; Node's timers run on libuv's millisecond clock (2 ms), and the probe ignores
    // lateness under 1 ms. HDR: 0.1 %.
    expect(result.latency.p50).toBeGreaterThanOrEqual(999);
    expect(result.latency.max).toBeLessThanOrEqual((1000 + 2 + 1 + TICK_MS + (result.loopDelay?.worstMs ?? 0)) * 1.001);
    expect(Object.keys(result.byName)).toEqual(['get_never']);
    expect(result.thresholds[0]).toMatchObject({ ok: false });
  });
});

describe('the generator itself', () => {
  let server: Server;
  let base: string;
  let received = 0;
  /** Every planned arrival was sent or dropped once, and only the run's answers are in the metrics: the target saw the warm-up's on top. */
  function expectNoneOfTheWarmUpCounted(result: ScenarioResult, recorder: Recorder, planned: number): void {
    expect(result.requests + result.dropped).toBe(planned);
    expect(received).toBe(result.requests + result.warmUp!.requests);
    expect(recorder.histogram().totalCount).toBe(result.requests);
    expect(result.timeline.reduce((n, p) => n + p.requests, 0)).toBe(result.requests);
  }
  /** 200 arrivals/s for 2 s (400 planned) on 2 preallocated connections: a warm-up of 40, two rounds of 2 then 36 paced. */
  const pacedScenario = (name: string, path: string): Scenario =>
    scenarioOf({ name, rate: 200, duration: '2s', preAllocatedVUs: 2, maxVUs: 20, credential: 'none', requests: [{ path }] });
  beforeAll(async () => {
    server = createServer((req, res) => {
      received++;
      // /flaky: the fifth request ever has its answer cut after the head (a transport error, not an HTTP status; an
      // answer already begun is never sent again, unlike a kept connection closed before any byte of it).
      if (req.url === '/flaky' && received === 5) {
        req.socket.end('HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\n{');
        return;
      }
      res.end('{}');
    });
    base = await listen(server);
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('a blocked event loop makes the run generator-bound, with the figure, in the result and the summary', async () => {
    const s = scenarioOf({ name: 'blocked', rate: 100, duration: '2s', preAllocatedVUs: 10, credential: 'none', requests: [{ path: '/ok' }] });
    let blocked = false;
    // The first progress tick (t0 + 200 ms) blocks the generator's thread for 300 ms, as a stuck generator would.
    const progress: ProgressSink = {
      start() {},
      stop() {},
      update() {
        if (blocked) return;
        blocked = true;
        const until = Date.now() + 300;
        while (Date.now() < until);
      },
    };
    const { result } = await runScenario({ scenario: s, baseUrl: base, api, credentials: {}, progress, monitorEveryMs: 200 });
    expect(blocked).toBe(true);
    expect(result.generatorBound).toBeDefined();
    expect(result.generatorBound!.worstLoopDelayMs).toBeGreaterThan(200);
    expect(result.generatorBound!.worstLateShare).toBeGreaterThan(0.01);
    expect(result.generatorBound!.seconds.length).toBeGreaterThanOrEqual(1);
    expect(formatScenarioSummary(result)).toMatch(/GENERATOR-BOUND: generator-bound in \d+ second/);
  });

  it('the warm-up opens the preallocated connections before t0 and is not counted', async () => {
    received = 0;
    const s = scenarioOf({ name: 'warm', rate: 20, duration: '1s', preAllocatedVUs: 3, maxVUs: 6, credential: 'none', requests: [{ path: '/ok' }] });
    const { result, recorder } = await runScenario({ scenario: s, baseUrl: base, api, credentials: {} });
    expect(result.workers).toBe(1);
    expect(result.warmUp).toMatchObject({ requests: 6, errors: 0, connections: 3 });
    expectNoneOfTheWarmUpCounted(result, recorder, 20);
    expect(formatScenarioSummary(result)).toMatch(/warm-up \(not counted\): 6 requests on 3 connection/);
  });

  it('after the connection rounds the warm-up paces the run\'s own traffic (a tenth of the run at most), and none of it is counted', async () => {
    received = 0;
    const { result, recorder } = await runScenario({ scenario: pacedScenario('paced-warm', '/ok'), baseUrl: base, api, credentials: {} });
    // 400 planned arrivals: the warm-up aims for 40 = two rounds of 2, then 36 paced at 200/s (180 ms).
    expect(result.warmUp).toMatchObject({ connections: 2, errors: 0 });
    expect(result.warmUp!.requests).toBeGreaterThan(4);
    expect(result.warmUp!.requests).toBeLessThanOrEqual(40);
    expectNoneOfTheWarmUpCounted(result, recorder, 400);
  });

  it('a failed request during the lead ends the warm-up\'s traffic; the run is sent in full and counts none of it', async () => {
    received = 0;
    const { result, recorder } = await runScenario({ scenario: pacedScenario('lead-fails', '/flaky'), baseUrl: base, api, credentials: {} });
    // Two rounds of 2 succeed; the lead's first request (the fifth) fails, and the lead sends nothing after the
    // requests already in flight then: fewer than the 40 the warm-up aimed for (4 + 36 at 200/s).
    expect(result.warmUp!.errors).toBe(1);
    expect(result.warmUp!.requests).toBeGreaterThanOrEqual(5);
    expect(result.warmUp!.requests).toBeLessThan(40);
    expect(result.errors).toEqual({});
    expectNoneOfTheWarmUpCounted(result, recorder, 400);
  });
});
