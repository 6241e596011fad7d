/** reference.injectLatencyMs: a fixed delay before every answer; none (and no hook) at 0. */
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/target/app.ts';

const apps: Array<Awaited<ReturnType<typeof buildApp>>['app']> = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

async function timed(injectLatencyMs?: number): Promise<{ ms: number; status: number }> {
  const { app } = await buildApp(injectLatencyMs === undefined ? {} : { injectLatencyMs });
  apps.push(app);
  const start = performance.now();
  const res = await app.inject({ method: 'GET', url: '/v1/whatsapp/messages' });
  return { ms: performance.now() - start, status: res.statusCode };
}

describe('injected latency', () => {
  it('delays every answer (here a 401) by the configured milliseconds', async () => {
    const slow = await timed(60);
    expect(slow.status).toBe(401);
    expect(slow.ms).toBeGreaterThanOrEqual(59);
  });

  it('adds no hook by default', async () => {
    const { app } = await buildApp();
    apps.push(app);
    expect(app.printPlugins()).toBeDefined();
    const fast = await timed(0);
    expect(fast.status).toBe(401);
    expect(fast.ms).toBeLessThan(50);
  });
});
