/**
 * The runner's two ways of not waiting for nothing: a check that mostly waits runs beside the suites it names
 * (beside.ts), and a credential a check left throttled recovers before the next check that needs it served, not
 * before one that exhausts it again (recoveries.ts).
 */
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../../src/config/index.ts';
import { deepFreeze } from '../../../src/config/freeze.ts';
import { overlapMs, planBeside } from '../../../src/conformance/beside.ts';
import { defineCheck, type Check } from '../../../src/conformance/check.ts';
import { createCheckContext, type CheckContext } from '../../../src/conformance/context.ts';
import type { Suite } from '../../../src/conformance/registry.ts';
import { runChecks } from '../../../src/conformance/runner.ts';
import { SchemaValidator } from '../../../src/conformance/schema-validator.ts';
import { TrafficLog } from '../../../src/conformance/traffic.ts';
import { EventBus, type HarnessEvent } from '../../../src/report/events.ts';
import { ConsoleReporter } from '../../../src/reporters/console-reporter.ts';
import { HttpClient } from '../../../src/http/client.ts';
import { SecretRegistry } from '../../../src/http/redact.ts';

function newContext(): CheckContext {
  const config = deepFreeze(defaultConfig());
  return createCheckContext({
    config,
    target: { baseUrl: 'http://127.0.0.1:9', embedded: false },
    // Never used: these checks send nothing.
    http: new HttpClient({ baseUrl: 'http://127.0.0.1:9' }),
    credentials: { apiKey: 'k' },
    schemas: new SchemaValidator({ errorSchema: config.api.errorSchema }),
    secrets: new SecretRegistry([]),
    traffic: new TrafficLog(),
  });
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function check(suite: string, name: string, run: Check['run'], extra: Partial<Check> = {}): Check {
  return defineCheck({ id: `${suite}.${name}`, suite, title: name, level: 'MUST', specRef: 'test', clauses: [], run, ...extra });
}

async function run(suites: Suite[], options: { skip?: string[]; signal?: AbortSignal; ctx?: CheckContext } = {}) {
  const events: HarnessEvent[] = [];
  const results = await runChecks({
    suites,
    ctx: options.ctx ?? newContext(),
    bus: new EventBus([{ name: 'collect', onEvent: (e) => void events.push(e) }]),
    skipChecks: new Set(options.skip ?? []),
    checkTimeoutMs: 5000,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  return { results, events };
}

describe('checks beside others (beside.ts)', () => {
  it('starts a waiting check at the first suite it names after its own, runs that suite meanwhile and joins it before a suite it did not name', async () => {
    const log: string[] = [];
    const waiter = check('a', 'waits', async () => {
      log.push('waits:start');
      await sleep(150);
      log.push('waits:end');
    }, { besideSuites: ['c'] });
    const suites: Suite[] = [
      { name: 'a', title: 'a', checks: [waiter, check('a', 'after', async () => void log.push('a.after'))] },
      { name: 'b', title: 'b', checks: [check('b', 'one', async () => void log.push('b.one'))] },
      { name: 'c', title: 'c', checks: [check('c', 'one', async () => void log.push('c.one')), check('c', 'two', async () => void log.push('c.two'))] },
      { name: 'd', title: 'd', checks: [check('d', 'one', async () => void log.push('d.one'))] },
    ];
    const { results, events } = await run(suites);
    // It did not run in its place (a.after and b.one came first), ran beside c, and ended (its wait included)
    // before d began.
    expect(log).toEqual(['a.after', 'b.one', 'waits:start', 'c.one', 'c.two', 'waits:end', 'd.one']);
    // The report keeps the suites' order; the events say when it really started and finished.
    expect(results.map((r) => r.id)).toEqual(['a.waits', 'a.after', 'b.one', 'c.one', 'c.two', 'd.one']);
    expect(results.every((r) => r.status === 'passed')).toBe(true);
    // Of its duration, what c.one and c.two took too is besideMs; the checks in their places have none.
    const waits = results[0]!;
    expect(waits.besideMs).toBeDefined();
    expect(waits.besideMs!).toBeLessThanOrEqual(waits.durationMs);
    expect(results.slice(1).every((r) => r.besideMs === undefined)).toBe(true);
    const order = events.flatMap((e) => (e.type === 'check-finished' ? [e.result.id] : e.type === 'suite-started' ? [`[${e.suite}]`] : []));
    expect(order).toEqual(['[a]', 'a.after', '[b]', 'b.one', '[c]', 'c.one', 'c.two', 'a.waits', '[d]', 'd.one']);
  });

  it('prints a check that finished beside later suites under the heading it finished in, saying so', async () => {
    const out: string[] = [];
    const console = new ConsoleReporter({ write: (t) => out.push(t), color: false, live: false });
    const waiter = check('a', 'waits', () => sleep(50), { besideSuites: ['b'] });
    const events = (await run([{ name: 'a', title: 'A', checks: [waiter] }, { name: 'b', title: 'B', checks: [check('b', 'one', async () => {})] }])).events;
    for (const event of events) console.onEvent(event);
    const lines = out.join('').split('\n').filter(Boolean).map((l) => l.replace(/\(\d+ ms/, '(N ms'));
    expect(lines).toEqual(['a — A', 'b — B', '  PASS MUST    b.one  one (N ms)', '  PASS MUST    a.waits  waits (N ms, ran beside the checks above)']);
  });

  it('counts each moment once: a beside check\'s overlap is what checks in their places and earlier-ended beside checks covered', () => {
    const spans = new Map<string, readonly [number, number]>([
      ['main.1', [0, 10]],
      ['main.2', [12, 20]],
      ['side.a', [5, 30]],
      ['side.b', [8, 25]],
    ]);
    const overlap = overlapMs(spans, (id) => id.startsWith('side.'));
    // side.b ended first: main.1 covers 8–10, main.2 12–20 → 10. side.a: main 5–10 and 12–20, side.b 8–25 → 5–25 = 20.
    expect(overlap).toEqual(new Map([['side.b', 10], ['side.a', 20]]));
    // Summed over checks, the own times are the union of all spans: 0–30.
    const own = [...spans].reduce((sum, [id, [from, to]]) => sum + (to - from) - (overlap.get(id) ?? 0), 0);
    expect(own).toBe(30);
  });

  it('runs the check in its place when no suite it names follows in the run, or when it is skipped', () => {
    const waiter = check('a', 'waits', async () => {}, { besideSuites: ['c'] });
    const onlyA: Suite[] = [{ name: 'a', title: 'a', checks: [waiter] }, { name: 'b', title: 'b', checks: [] }];
    expect(planBeside(onlyA).moved(waiter.id)).toBe(false);
    // A suite it names that comes before it is not one it runs beside.
    const cFirst: Suite[] = [{ name: 'c', title: 'c', checks: [] }, { name: 'a', title: 'a', checks: [waiter] }];
    expect(planBeside(cFirst).moved(waiter.id)).toBe(false);
    const withC: Suite[] = [{ name: 'a', title: 'a', checks: [waiter] }, { name: 'c', title: 'c', checks: [] }];
    expect(planBeside(withC).moved(waiter.id)).toBe(true);
    expect(planBeside(withC).startAt('c')).toEqual([waiter]);
    expect(planBeside(withC, new Set(['a.waits'])).moved(waiter.id)).toBe(false);
  });

  it('ends a check running beside before the results are returned, also when the run is interrupted', async () => {
    const controller = new AbortController();
    let waiterFinished = false;
    const waiter = check('a', 'waits', async () => {
      await sleep(2000);
      waiterFinished = true;
    }, { besideSuites: ['b'] });
    const suites: Suite[] = [
      { name: 'a', title: 'a', checks: [waiter] },
      // The interruption comes just after b's check, while the run waits for a.waits before suite c.
      { name: 'b', title: 'b', checks: [check('b', 'stops', async () => void setTimeout(() => controller.abort(), 20))] },
      { name: 'c', title: 'c', checks: [check('c', 'never', async () => {})] },
    ];
    const { results } = await run(suites, { signal: controller.signal });
    // The run ended the wait for the beside check: its results came while the check's own 2 s were still running.
    expect(waiterFinished).toBe(false);
    expect(results.map((r) => [r.id, r.status])).toEqual([['a.waits', 'error'], ['b.stops', 'passed']]);
    expect(results[0]!.message).toMatch(/^interrupted while this check ran/);
  });
});

describe('credentials left throttled (recoveries.ts)', () => {
  it('lets a credential recover before the next check that needs it served, not before one that exhausts it itself, and before the checks end', async () => {
    const ctx = newContext();
    const log: string[] = [];
    const leave = (by: string) => ctx.recoveries.leave({ credential: 'apiKey', by, ensureServed: async () => (log.push(`recover(${by})`), await sleep(60)) });
    const suites: Suite[] = [{
      name: 'r',
      title: 'r',
      checks: [
        check('r', 'first', async () => (log.push('first'), leave('r.first')), { exhausts: ['apiKey'] }),
        check('r', 'second', async () => (log.push('second'), leave('r.second')), { exhausts: ['apiKey'] }),
        check('r', 'needs', async () => void log.push('needs')),
        check('r', 'last', async () => (log.push('last'), leave('r.last')), { exhausts: ['apiKey'] }),
      ],
    }];
    const { results } = await run(suites, { ctx });
    // One recovery between the two that exhaust the key and the one that needs it; one more before the checks end.
    expect(log).toEqual(['first', 'second', 'recover(r.second)', 'needs', 'last', 'recover(r.last)']);
    // The wait is part of the check that needed it (its duration, its scope), as it was part of the one that throttled.
    expect(results.find((r) => r.id === 'r.needs')!.durationMs).toBeGreaterThanOrEqual(55);
    expect(results.find((r) => r.id === 'r.second')!.durationMs).toBeLessThan(55);
  });

  it('does not run a recovery for a check skipped by the config, and none once the run is interrupted', async () => {
    const ctx = newContext();
    const log: string[] = [];
    const controller = new AbortController();
    const suites: Suite[] = [{
      name: 'r',
      title: 'r',
      checks: [
        check('r', 'leaves', async () => ctx.recoveries.leave({ credential: 'apiKey', by: 'r.leaves', ensureServed: async () => void log.push('recover') }), { exhausts: ['apiKey'] }),
        check('r', 'skipped', async () => void log.push('skipped ran')),
        check('r', 'stops', async () => (log.push('stops'), controller.abort())),
      ],
    }];
    await run(suites, { ctx, skip: ['r.skipped'], signal: controller.signal });
    // The skipped check needed nothing; the next one did; after the interruption nothing more is waited for.
    expect(log).toEqual(['recover', 'stops']);
    ctx.recoveries.leave({ credential: 'apiKey', by: 'x', ensureServed: async () => void log.push('late') });
    const again = new AbortController();
    again.abort();
    await run([{ name: 's', title: 's', checks: [] }], { ctx, signal: again.signal });
    expect(log).toEqual(['recover', 'stops']);
  });
});
