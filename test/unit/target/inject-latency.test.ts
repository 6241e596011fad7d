/** reference.injectLatencyMs: a fixed delay before every answer; none (and no hook) at 0. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../../src/target/app.ts';

const apps: Array<Awaited<ReturnType<typeof buildApp>>['app']> = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

/**
 * One request on a fake clock: whether it was answered before the clock moved, after `beforeMs`, and after the
 * rest of `totalMs` — the delay is judged by the clock the server waited on, not by how long the test took.
 */
async function answeredAt(injectLatencyMs: number | undefined, beforeMs: number, totalMs: number): Promise<{ status: number; answered: boolean[] }> {
  const { app } = await buildApp(injectLatencyMs === undefined ? {} : { injectLatencyMs });
  apps.push(app);
  await app.ready();
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  let status = 0;
  const pending = app.inject({ method: 'GET', url: '/v1/whatsapp/messages' }).then((res) => (status = res.statusCode));
  const answered: boolean[] = [];
  // Real I/O-free turns of the event loop let the request run as far as it can without the clock moving.
  const settle = async (): Promise<void> => {
    for (let i = 0; i < 20; i++) await new Promise<void>((resolve) => setImmediate(resolve));
  };
  await settle();
  answered.push(status !== 0);
  await vi.advanceTimersByTimeAsync(beforeMs);
  await settle();
  answered.push(status !== 0);
  await vi.advanceTimersByTimeAsync(totalMs - beforeMs);
  await settle();
  answered.push(status !== 0);
  vi.useRealTimers();
  await pending;
  return { status, answered };
}

describe('injected latency', () => {
  it('delays every answer (here a 401) by the configured milliseconds', async () => {
    const slow = await answeredAt(60, 59, 60);
    expect(slow.status).toBe(401);
    // Not answered at once, nor 1 ms before the delay ends; answered when it has.
    expect(slow.answered).toEqual([false, false, true]);
  });

  it('adds no hook by default', async () => {
    const { app } = await buildApp();
    apps.push(app);
    expect(app.printPlugins()).toBeDefined();
    // Answered without the clock moving at all: nothing waits before the answer.
    for (const latency of [undefined, 0]) {
      const fast = await answeredAt(latency, 0, 0);
      expect(fast.status).toBe(401);
      expect(fast.answered).toEqual([true, true, true]);
    }
  });
});
