/**
 * Flow iterations against a real server on 127.0.0.1 port 0 (node:http), through runScenario as `harness load`
 * runs them: captures (JSON pointer, header, status) feed later steps, a repeat follows a cursor and stops at its
 * bound even when the server never ends the list, a failed step aborts its iteration (or not, with continue),
 * think time is inside iteration_duration, and both models run iterations.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../../../src/config/defaults.ts';
import { runScenario } from '../../../../src/load/run-scenario.ts';
import { checkScenarioText } from '../../../../src/load/scenario/load.ts';
import type { Scenario } from '../../../../src/load/scenario/types.ts';

let server: Server;
let baseUrl = '';
const seen: Array<{ method: string; url: string; auth?: string; body: string }> = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', ...(req.headers.authorization ? { auth: req.headers.authorization } : {}), body });
      const url = new URL(req.url ?? '/', 'http://x');
      const json = (status: number, value: unknown, headers: Record<string, string> = {}): void => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(JSON.stringify(value));
      };
      if (url.pathname === '/login') return json(200, { token: 'tok/1 +' }, { 'x-session': 'sess-9' });
      if (url.pathname === '/me') return req.headers.authorization === 'Bearer tok/1 +' ? json(200, { id: 'me' }) : json(401, {});
      // An endless list: every page has a next cursor.
      if (url.pathname === '/pages') return json(200, { data: [], pagination: { next: `c${Number((url.searchParams.get('cursor') ?? 'c0').slice(1)) + 1}` } });
      if (url.pathname === '/fail') return json(500, {});
      if (url.pathname.startsWith('/echo/')) return json(200, { path: url.pathname, session: req.headers['x-session'] ?? null });
      json(404, {});
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
});

function scenario(yaml: string): Scenario {
  const { scenario: s, issues } = checkScenarioText(yaml, 'flow.yaml', {});
  if (!s) throw new Error(issues.map((i) => `${i.path}: ${i.message}`).join('\n'));
  return s;
}

const run = (s: Scenario) => runScenario({ scenario: { ...s, warmUp: false }, baseUrl, api: defaultConfig().api, credentials: { loadKey: 'lk' } as never, workers: 1, seed: 1 });

describe('flow iterations', () => {
  it('captures feed later steps, repeat stops at its bound, every step under its name', async () => {
    seen.length = 0;
    const s = scenario(`
executor: per-vu-iterations
vus: 1
iterations: 2
maxDuration: 20s
credential: none
flow:
  steps:
    - name: login
      method: POST
      path: /login
      capture: { token: { json: /token }, session: { header: X-Session }, code: { status: true } }
    - name: me
      path: /me
      headers: { authorization: "Bearer {{token}}" }
    - name: echo
      path: /echo/{{token}}/{{code}}
      headers: { x-session: "{{session}}" }
      expectJson: { /session: "{{session}}" }
    - name: first
      path: /pages
      capture: { next: { json: /pagination/next } }
    - name: walk
      path: /pages
      query: { cursor: "{{next}}" }
      capture: { next: { json: /pagination/next } }
      repeat: { while: next, max: 3 }
`);
    const { result } = await run(s);
    expect(result.iterations).toMatchObject({ count: 2, failed: 0, failedBy: {} });
    expect(Object.fromEntries(Object.entries(result.byName).map(([n, v]) => [n, v.statusCodes]))).toEqual({
      login: { 200: 2 },
      me: { 200: 2 },
      echo: { 200: 2 },
      first: { 200: 2 },
      walk: { 200: 6 },
    });
    // The captured token, percent-encoded in the path; the cursor followed page by page.
    expect(seen.filter((r) => r.url.startsWith('/echo/')).map((r) => r.url)).toEqual(['/echo/tok%2F1%20%2B/200', '/echo/tok%2F1%20%2B/200']);
    expect(seen.filter((r) => r.url.startsWith('/pages?')).map((r) => r.url).slice(0, 3)).toEqual(['/pages?cursor=c1', '/pages?cursor=c2', '/pages?cursor=c3']);
  });

  it('a failed step aborts the iteration (counted by step); with continue the next steps still run', async () => {
    const yaml = (policy: string) => `
executor: per-vu-iterations
vus: 1
iterations: 3
maxDuration: 20s
credential: none
flow:
  onStepFailure: ${policy}
  steps:
    - { name: ok, path: /login }
    - { name: broken, path: /fail }
    - { name: after, path: /login }
`;
    const aborted = (await run(scenario(yaml('abort')))).result;
    expect(aborted.iterations).toMatchObject({ count: 3, failed: 3, failedBy: { broken: 3 } });
    expect(aborted.byName.after?.requests).toBe(0);
    const continued = (await run(scenario(yaml('continue')))).result;
    expect(continued.iterations).toMatchObject({ count: 3, failed: 3, failedBy: { broken: 3 } });
    expect(continued.byName.after?.requests).toBe(3);
  });

  it('VU executors loop iterations back to back (constant-vus)', async () => {
    const { result } = await run(
      scenario(`
executor: constant-vus
vus: 2
duration: 1s
credential: none
flow:
  steps:
    - { name: a, path: /login, think: 20ms }
    - { name: b, path: /login }
`),
    );
    // Two VUs for a second, each iteration at least 20 ms: more than 2, at most 2 × 1000 / 20 iterations.
    expect(result.iterations!.count).toBeGreaterThan(2);
    expect(result.iterations!.count).toBeLessThanOrEqual(2 * 51);
    expect(result.byName.a?.requests).toBe(result.byName.b?.requests);
    expect(Math.abs(result.byName.a!.requests - result.iterations!.count)).toBeLessThanOrEqual(2);
  });

  it('worker threads run their share of the iterations; the merge keeps every iteration and step', async () => {
    const flow = `credential: none
flow:
  steps:
    - { name: login, method: POST, path: /login, capture: { token: { json: /token } } }
    - { name: me, path: /me, headers: { authorization: "Bearer {{token}}" } }
`;
    const open = (await runScenario({ scenario: scenario(`executor: constant-arrival-rate\nrate: 20\nduration: 1s\npreAllocatedVUs: 4\nwarmUp: false\n${flow}`), baseUrl, api: defaultConfig().api, credentials: {} as never, workers: 2, seed: 1 })).result;
    expect(open.workers).toBe(2);
    expect(open.iterations!.count + open.dropped).toBe(20);
    expect(open.iterations!.failed).toBe(0);
    expect(open.byName.me?.statusCodes).toEqual({ 200: open.iterations!.count });
    const closed = (await runScenario({ scenario: scenario(`executor: per-vu-iterations\nvus: 2\niterations: 3\nmaxDuration: 20s\n${flow}`), baseUrl, api: defaultConfig().api, credentials: {} as never, workers: 2, seed: 1 })).result;
    expect(closed.workers).toBe(2);
    expect(closed.iterations).toMatchObject({ count: 6, failed: 0 });
    expect(closed.byName.me?.statusCodes).toEqual({ 200: 6 });
  }, 60_000);

  it('think time is inside iteration_duration; the open model starts one iteration per arrival', async () => {
    const s = scenario(`
executor: constant-arrival-rate
rate: 10
duration: 1s
preAllocatedVUs: 5
credential: none
flow:
  steps:
    - { name: a, path: /login, think: 150ms }
    - { name: b, path: /login, think: { min: 10ms, max: 20ms } }
thresholds:
  iteration_duration: ['p(50)>=159', 'p(50)<100']
  iterations: ['count>0']
`);
    const { result } = await run(s);
    expect(result.iterations!.count + result.dropped).toBe(10);
    expect(result.byName.a?.requests).toBe(result.iterations!.count);
    // At least the two think times: 150 + 10 ms (HDR buckets are within 0.1 %).
    expect(result.iterations!.duration.p50).toBeGreaterThanOrEqual(159);
    // Thresholds on the iteration metrics read the iterations, not the requests.
    expect(result.thresholds.map((t) => [t.metric, t.expr, t.ok])).toEqual([
      ['iteration_duration', 'p(50)>=159', true],
      ['iteration_duration', 'p(50)<100', false],
      ['iterations', 'count>0', true],
    ]);
    expect(result.thresholds[2]!.actual).toBe(result.iterations!.count);
  });
});
