/**
 * Bodies that never end, after the preflight (faultAt 5: the preflight's requests are answered). undici's timeouts
 * are idle timeouts, which neither a drip nor an endless chunked stream ever trips: `harness load` once waited on
 * them forever (warm-up rounds included) and SIGINT ended it only by a forced exit, without a report. The load
 * engines' own sender (src/load/engine/h1/) gives each request a total deadline.
 */
import { describe, expect, it } from 'vitest';
import { hostileTargets } from './lib/hostile-run.ts';

const hostile = hostileTargets();

describe('hostile targets in harness load: every run ends by itself, and an interrupt ends it with its report', () => {
  /**
   * The stated bound (docs/reference/exit-codes.md): warm-up ≤ 2 rounds × 2 s + the lead (≤ 1 s), then the
   * scenario's duration, then min(gracefulStop, timeout) for what is in flight. smoke: 3 s, timeout 10 s → 18 s of
   * run; the child's 90 s limit (it is killed there, failing the test) only bounds a hang.
   */
  it.each([
    ['drips one byte every 100 ms', 'drip'],
    ['an endless chunked body', 'endless-chunked'],
  ] as const)('%s → ends by itself: exit 99, the requests cut at their deadline counted as failed, in latency too', async (_name, kind) => {
    const { result, report } = await hostile.run(kind, { command: 'load', faultAt: 5 });
    expect(result.code).toBe(99);
    const [scenario] = report.scenarios;
    // A dripping request is cut at the warm-up's 2 s deadline; a failed round ends the warm-up. The margin above the
    // bound is this process's timers running late on a loaded machine (the run's own worst measured stall).
    expect(scenario.warmUp.durationMs).toBeLessThanOrEqual(2 * 2000 + 1000 + 500 + (scenario.loopDelay?.worstMs ?? 0));
    expect(Object.values(scenario.errors as Record<string, number>).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    // Cut at the deadline, not by another limit (the 64 MiB body cap was what ended the fast endless body once).
    for (const code of Object.keys(scenario.errors)) expect(code).toMatch(/^UND_ERR_(HEADERS|BODY)_TIMEOUT$/);
    const latency = scenario.thresholds.find((t: any) => t.metric === 'http_req_duration');
    expect(latency.ok).toBe(false);
    expect(latency.actual).toBeGreaterThan(500);
  }, 120_000);
});
