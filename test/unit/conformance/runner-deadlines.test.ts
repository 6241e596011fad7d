/**
 * A check's deadline and an interruption abort the check's requests (not only the wait for them), and a run
 * whose target stops answering ends as "target lost" at the check where it happened. Real servers on port 0.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../../src/config/index.ts';
import { deepFreeze } from '../../../src/config/freeze.ts';
import { defineCheck, type Check } from '../../../src/conformance/check.ts';
import { fail } from '../../../src/conformance/outcomes.ts';
import { createCheckContext, type CheckContext } from '../../../src/conformance/context.ts';
import { runChecks } from '../../../src/conformance/runner.ts';
import { SchemaValidator } from '../../../src/conformance/schema-validator.ts';
import { TrafficLog } from '../../../src/conformance/traffic.ts';
import type { TargetLostError } from '../../../src/errors/harness-errors.ts';
import { EventBus } from '../../../src/report/events.ts';
import { HttpClient, TransportError } from '../../../src/http/client.ts';
import { SecretRegistry } from '../../../src/http/redact.ts';
import { closedPort } from '../../targets/hostile/servers.ts';

let server: Server;
let baseUrl: string;
const closedRequests: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    // /hang never answers; the test sees when the harness gives the request up (the socket closes).
    if (req.url === '/hang') return void req.socket.once('close', () => closedRequests.push(req.url!));
    res.setHeader('content-type', 'application/json');
    res.end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function contextFor(url: string): CheckContext {
  const config = deepFreeze(defaultConfig());
  return createCheckContext({
    config,
    target: { baseUrl: url, embedded: false },
    http: new HttpClient({ baseUrl: url, timeoutMs: 30_000 }),
    credentials: {},
    schemas: new SchemaValidator({ errorSchema: config.api.errorSchema }),
    secrets: new SecretRegistry([]),
    traffic: new TrafficLog(),
  });
}

const check = (id: string, run: Check['run']): Check => defineCheck({ id: `t.${id}`, suite: 't', title: id, level: 'MUST', specRef: 'test', clauses: [], run });
const bus = new EventBus([]);

describe('check deadline', () => {
  it('aborts the request in flight, and a fail() after the abort is not the result', async () => {
    const ctx = contextFor(baseUrl);
    const results = await runChecks({
      suites: [{
        name: 't',
        title: 't',
        checks: [check('hangs', async (c) => {
          // A check that turns "no response" into a failure must not fail the target because the harness gave up.
          await c.http.request({ path: '/hang' }).catch((err: unknown) => fail(`no answer: ${(err as Error).message}`));
        })],
      }],
      ctx,
      bus,
      checkTimeoutMs: 200,
    });
    expect(results[0]).toMatchObject({ status: 'error', message: expect.stringContaining('did not finish within 200 ms') });
    expect(results[0]!.evidence?.exchanges[0]?.error).toMatch(/^ABORTED: /);
    await expect.poll(() => closedRequests).toContain('/hang');
    await ctx.http.close();
  });

  it('an interruption aborts the running check and stops the run', async () => {
    const ctx = contextFor(baseUrl);
    const interrupt = new AbortController();
    const ran: string[] = [];
    const results = await runChecks({
      suites: [{
        name: 't',
        title: 't',
        checks: [
          check('first', async (c) => {
            setTimeout(() => interrupt.abort(), 50);
            await c.http.request({ path: '/hang' });
          }),
          check('second', async () => void ran.push('second')),
        ],
      }],
      ctx,
      bus,
      checkTimeoutMs: 30_000,
      signal: interrupt.signal,
    });
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ status: 'error', message: expect.stringContaining('interrupted') });
    expect(ran).toEqual([]);
    await ctx.http.close();
  });
});

describe('target lost', () => {
  async function runAgainstClosedPort(checks: Check[]) {
    const ctx = contextFor(await closedPort());
    const lost: TargetLostError[] = [];
    const results = await runChecks({ suites: [{ name: 't', title: 't', checks }], ctx, bus, checkTimeoutMs: 5000, onTargetLost: (err) => void lost.push(err) });
    await ctx.http.close();
    return { results, lost };
  }
  const twoFailedRequests = (id: string): Check =>
    check(id, async (c) => {
      for (let i = 0; i < 2; i++) await c.http.request({ path: '/x' }).catch((err: unknown) => expect(err).toBeInstanceOf(TransportError));
    });

  it('stops the run after 5 requests in a row without a response, naming the check', async () => {
    const { results, lost } = await runAgainstClosedPort([twoFailedRequests('a'), twoFailedRequests('b'), twoFailedRequests('c'), twoFailedRequests('d')]);
    // t.d never started: it is in the results as not run, so the verdict counts it.
    expect(results.map((r) => r.id)).toEqual(['t.a', 't.b', 't.c', 't.d']);
    expect(results[3]).toMatchObject({ status: 'skipped', message: 'not run: the target was lost during check t.c' });
    expect(lost).toHaveLength(1);
    expect(lost[0]!.code).toBe('HARNESS_ERR_TARGET_LOST');
    expect(lost[0]!.exitCode).toBe(3);
    expect(lost[0]!.checkId).toBe('t.c');
    expect(lost[0]!.message).toContain('lost during check t.c: 6 requests in a row got no HTTP response (last: ECONNREFUSED');
  });

  it('one check alone cannot lose the target (a check may provoke transport errors on purpose)', async () => {
    const many = check('many', async (c) => {
      for (let i = 0; i < 8; i++) await c.http.request({ path: '/x' }).catch(() => undefined);
    });
    const { results, lost } = await runAgainstClosedPort([many]);
    expect(results).toHaveLength(1);
    expect(lost).toEqual([]);
  });

  it('an answer in between resets the count', async () => {
    const ctx = contextFor(baseUrl);
    const down = new HttpClient({ baseUrl: await closedPort() });
    const lost: TargetLostError[] = [];
    const mixed = (id: string): Check =>
      check(id, async (c) => {
        for (let i = 0; i < 3; i++) await down.request({ path: '/x' }).catch(() => undefined);
        await c.http.request({ path: '/ok' });
      });
    const results = await runChecks({ suites: [{ name: 't', title: 't', checks: [mixed('a'), mixed('b'), mixed('c')] }], ctx, bus, checkTimeoutMs: 5000, onTargetLost: (err) => void lost.push(err) });
    expect(results).toHaveLength(3);
    expect(lost).toEqual([]);
    await Promise.all([ctx.http.close(), down.close()]);
  });
});
