import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../../src/config/index.ts';
import { defineCheck, type Check } from '../../../src/conformance/check.ts';
import { fail, skip, undecided } from '../../../src/conformance/outcomes.ts';
import { createCheckContext, type CheckContext } from '../../../src/conformance/context.ts';
import { CheckRegistry } from '../../../src/conformance/registry.ts';
import { runChecks } from '../../../src/conformance/runner.ts';
import { SchemaValidator } from '../../../src/conformance/schema-validator.ts';
import type { CheckResult } from '../../../src/conformance/result.ts';
import { EventBus, type HarnessEvent } from '../../../src/report/events.ts';
import { HttpClient } from '../../../src/http/client.ts';
import { RateLimitedError } from '../../../src/http/polite-wait.ts';
import { REDACTED, SecretRegistry } from '../../../src/http/redact.ts';
import { ConfigError, UnknownSuiteError } from '../../../src/errors/harness-errors.ts';
import { deepFreeze } from '../../../src/config/freeze.ts';
import { TrafficLog } from '../../../src/conformance/traffic.ts';

const SECRET = 'sk_test_supersecret_value';
let server: Server;
let http: HttpClient;
let ctx: CheckContext;

beforeAll(async () => {
  // A target that echoes the Authorization header back in its body: evidence must still not show the key.
  server = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ echoed: req.headers.authorization, path: req.url }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  http = new HttpClient({ baseUrl: `http://127.0.0.1:${port}` });
  const config = deepFreeze(defaultConfig());
  ctx = createCheckContext({
    config,
    target: { baseUrl: http.baseUrl, embedded: false },
    http,
    credentials: { apiKey: SECRET },
    schemas: new SchemaValidator({ errorSchema: config.api.errorSchema }),
    secrets: new SecretRegistry([SECRET]),
    traffic: new TrafficLog(),
  });
});

afterAll(async () => {
  await http.close();
  await new Promise((resolve) => server.close(resolve));
});

const check = (id: string, run: Check['run']): Check => defineCheck({ id: `t.${id}`, suite: 't', title: id, level: 'MUST', specRef: 'test', clauses: [], run });

async function run(checks: Check[], options: { skip?: string[]; timeoutMs?: number } = {}) {
  const events: HarnessEvent[] = [];
  const results = await runChecks({
    suites: [{ name: 't', title: 'test', checks }],
    ctx,
    bus: new EventBus([{ name: 'collect', onEvent: (e) => void events.push(e) }]),
    skipChecks: new Set(options.skip ?? []),
    checkTimeoutMs: options.timeoutMs ?? 5000,
  });
  return { results, events };
}

describe('runChecks', () => {
  it('records "could not decide" as its own status, with the measured reason and details, secrets redacted', async () => {
    const { results } = await run([
      check('undecided', async (c) => {
        await c.http.request({ path: '/u', bearer: c.credentials.apiKey });
        const conditions = c.conditions.since(c.conditions.mark() - 1000);
        undecided(`waits grew by 3 ms, within ±40 ms measured (${SECRET})`, { toleranceMs: 40, conditions });
      }),
    ]);
    expect(results[0]!.status).toBe('undecided');
    expect(results[0]!.message).toBe(`waits grew by 3 ms, within ±40 ms measured (${REDACTED})`);
    expect(results[0]!.evidence?.details).toMatchObject({ toleranceMs: 40 });
    // The request the check made is in the context's measured round trips.
    expect(ctx.conditions.snapshot().spanMs).toBeGreaterThan(0);
  });

  it('records pass, fail, skip and error, with redacted evidence on failure', async () => {
    const { results, events } = await run([
      check('pass', async (c) => void (await c.http.request({ path: '/ok' }))),
      check('fail', async (c) => {
        await c.http.request({ path: '/x?api_key=plain', bearer: c.credentials.apiKey });
        fail(`target echoed ${SECRET}`, { expected: 1, actual: 2 });
      }),
      check('skip', async () => skip('not applicable')),
      check('error', async () => {
        throw new TypeError('boom');
      }),
    ]);
    expect(results.map((r: CheckResult) => r.status)).toEqual(['passed', 'failed', 'skipped', 'error']);
    const failed = results[1]!;
    expect(failed.message).toBe(`target echoed ${REDACTED}`);
    expect(failed.evidence?.details).toEqual({ expected: 1, actual: 2 });
    const exchange = failed.evidence!.exchanges[0]!;
    expect(exchange.request.headers.authorization).toBe(`Bearer ${REDACTED}`);
    expect(exchange.request.url).toContain(`api_key=${REDACTED}`);
    expect(exchange.response?.status).toBe(200);
    expect(JSON.stringify(failed)).not.toContain(SECRET);
    expect(results[2]!.message).toBe('not applicable');
    expect(results[3]!.message).toBe('check could not run: boom');
    expect(results[0]!.evidence).toBeUndefined();
    expect(events.map((e) => e.type)).toEqual(['suite-started', ...Array(4).fill(['check-started', 'check-finished']).flat(), 'suite-finished']);
  });

  it('skips checks named in skipChecks and bounds a check by its timeout', async () => {
    const { results } = await run(
      [check('skipped', async () => fail('must not run')), check('slow', () => new Promise((resolve) => setTimeout(resolve, 2000)))],
      { skip: ['t.skipped'], timeoutMs: 50 },
    );
    expect(results[0]).toMatchObject({ status: 'skipped', message: 'skipped by conformance.skipChecks' });
    expect(results[1]).toMatchObject({ status: 'error', message: 'check did not finish within 50 ms (conformance.checkTimeoutMs); its requests were aborted' });
  });

  it('gives a check that declares its requests the time they take at the announced quota', async () => {
    http.polite.announced = { quota: 2, windowS: 0.5 };
    try {
      const slow = () => new Promise<void>((resolve) => setTimeout(resolve, 150));
      const { results } = await run([{ ...check('walk', slow), requests: 10 }, check('plain', slow)], { timeoutMs: 50 });
      // 10 requests at 2 per 0.5 s need 2.5 s: the declared check finishes; the plain one keeps the 50 ms.
      expect(results[0]).toMatchObject({ status: 'passed' });
      expect(results[1]).toMatchObject({ status: 'error' });
    } finally {
      http.polite.announced = undefined;
    }
  });

  it('reports a check the rate limit kept from running as an error "not run: rate limited", never a failure', async () => {
    const { results } = await run([check('limited', async () => {
      throw new RateLimitedError('GET /x got no answer but 429: still 429 after 3 polite retries over 3 s');
    })]);
    expect(results[0]).toMatchObject({ status: 'error', message: 'not run: rate limited — GET /x got no answer but 429: still 429 after 3 polite retries over 3 s' });
  });
});

describe('CheckRegistry', () => {
  const registry = new CheckRegistry().register({ name: 'smoke', title: 's', checks: [defineCheck({ id: 'smoke.a', suite: 'smoke', title: 'a', level: 'MUST', specRef: 'x', clauses: [], run: async () => {} })] });

  it('rejects duplicate ids and mismatched suites', () => {
    const dup = defineCheck({ id: 'smoke.a', suite: 'other', title: 'a', level: 'MUST', specRef: 'x', clauses: [], run: async () => {} });
    expect(() => new CheckRegistry().register({ name: 'other', title: 'o', checks: [dup, dup] })).toThrow(/registered twice/);
    expect(() => new CheckRegistry().register({ name: 'smoke', title: 'o', checks: [dup] })).toThrow(/says suite "other"/);
  });

  it('names unknown suites with a suggestion', () => {
    expect(() => registry.select(['smoek'])).toThrow(UnknownSuiteError);
    expect(() => registry.select(['smoek'])).toThrow('unknown suite "smoek" (did you mean "smoke"?); available: smoke');
  });

  it('treats an unknown check id in the config as a config error', () => {
    try {
      registry.assertKnownChecks(['smoke.b'], 'conformance.skipChecks', 'h.yaml');
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as ConfigError).message).toBe('h.yaml: conformance.skipChecks[0]: unknown check id "smoke.b" (did you mean "smoke.a"?)');
    }
  });
});
