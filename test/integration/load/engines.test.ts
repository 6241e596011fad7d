/** Short real runs of both engines against servers on port 0 (the reference target, and a stalling one). */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../../src/config/defaults.ts';
import { credentialsFromReference } from '../../../src/job/open-target.ts';
import { runScenario } from '../../../src/load/run-scenario.ts';
import type { Scenario } from '../../../src/load/scenario/types.ts';
import { startReferenceTarget } from '../../../src/target/index.ts';
import type { StartedReferenceTarget } from '../../../src/target/types.ts';
import { scenarioOf } from '../../helpers/load-scenario.ts';

const api = defaultConfig().api;
let target: StartedReferenceTarget;

beforeAll(async () => {
  target = await startReferenceTarget({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await target?.close();
});

describe('load engines against real servers', () => {
  it('open model: paces the mix at the rate and reports every field', async () => {
    const s = scenarioOf({ name: 'open', rate: 200, duration: '1500ms', preAllocatedVUs: 20, requests: [{ name: 'send', operation: 'send', weight: 3 }, { name: 'list', operation: 'list' }], thresholds: { http_req_failed: ['rate<0.01'], 'http_req_duration{name:send}': ['p(50)<1000'] } });
    const { result } = await runScenario({ scenario: s, baseUrl: target.baseUrl, api, credentials: credentialsFromReference(target.credentials) });
    const keys = ['name', 'executor', 'config', 'requests', 'rps', 'durationMs', 'dropped', 'latency', 'percentiles', 'byName', 'statusCodes', 'rateLimited', 'errors', 'thresholds', 'timeline', 'histograms', 'workers', 'warmUp', 'loopDelay'];
    // generatorBound appears only when this (busy, shared) machine held the generator back: never asserted absent.
    expect(Object.keys(result).filter((k) => k !== 'generatorBound')).toEqual(keys);
    if (result.generatorBound) console.log(result.generatorBound.message);
    // Exactly rate × duration arrivals: each is an answered request or a dropped one.
    expect(result.requests + result.dropped).toBe(300);
    expect(result.byName.send!.requests + result.byName.list!.requests).toBe(result.requests);
    expect(result.byName.send!.statusCodes['201']).toBeGreaterThan(150);
    expect(result.rateLimited).toBe(0);
    expect(result.thresholds.map((t) => [t.metric, t.expr, t.ok])).toEqual([
      ['http_req_failed', 'rate<0.01', true],
      ['http_req_duration{name:send}', 'p(50)<1000', true],
    ]);
    expect(result.timeline.length).toBeGreaterThanOrEqual(2);
    expect(result.timeline[0]!.requests).toBeGreaterThan(100);
  });

  it('closed model: autocannon VUs with per-name metrics', async () => {
    const s = scenarioOf({ name: 'closed', executor: 'constant-vus', vus: 4, duration: '1s', requests: [{ name: 'send', operation: 'send', weight: 1 }, { name: 'list', operation: 'list', weight: 1 }] });
    const { result } = await runScenario({ scenario: s, baseUrl: target.baseUrl, api, credentials: credentialsFromReference(target.credentials) });
    expect(result.requests).toBeGreaterThan(50);
    expect(result.dropped).toBe(0);
    expect(Math.abs(result.byName.send!.requests - result.byName.list!.requests)).toBeLessThanOrEqual(4);
    expect(result.statusCodes).toEqual({ '200': result.byName.list!.requests, '201': result.byName.send!.requests });
    expect(result.latency.p50).toBeGreaterThan(0);
  });

  describe('a target that stalls', () => {
    let server: Server;
    let base: string;
    beforeAll(async () => {
      // Answers at once, except that it stops answering between 300 and 500 ms after the first request.
      let first = 0;
      server = createServer((req, res) => {
        first ||= Date.now();
        const since = Date.now() - first;
        const wait = since >= 300 && since < 500 ? 500 - since : 0;
        setTimeout(() => res.end('{}'), wait);
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('shows the stall in the percentiles (latency from the intended time), not hidden by a slowed schedule', async () => {
      // No warm-up: the server's clock starts at the first request it sees, and on a loaded machine the warm-up (100
      // connections opened, then its paced requests) can outlast the stall, which then falls before t0, uncounted
      // (one loaded run measured a max of 27 ms).
      const s = scenarioOf({ name: 'stall', rate: 200, duration: '1s', preAllocatedVUs: 100, credential: 'none', warmUp: false, requests: [{ path: '/x' }] });
      const { result } = await runScenario({ scenario: s, baseUrl: base, api, credentials: {} });
      // About 40 of 200 arrivals fall in the 200 ms stall and wait up to 200 ms: p90 and max reveal it.
      expect(result.requests + result.dropped).toBe(200);
      expect(result.latency.max).toBeGreaterThan(150);
      expect(result.latency.p90).toBeGreaterThan(20);
    });
  });
});
