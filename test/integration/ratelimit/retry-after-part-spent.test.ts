/**
 * The Retry-After honesty check starting on a key that an earlier, slower burst left part-spent in a sliding
 * window: the slots of that burst free one at a time, so a 429 right after them needs only a short wait and a lying
 * Retry-After of 1 s would come true by accident. The check lets the quota fill up first, so the lie is caught
 * whatever the earlier traffic was (on a loaded machine an earlier check's burst is that slow). The window (6 s) is
 * long against the lie (1 s), so the check's own burst shows it even when a loaded machine spreads that burst out.
 */
import { describe, expect, it } from 'vitest';
import { createDefaultRegistry } from '../../../suites/index.ts';
import { failedIds, resultOf, runHarness } from '../../helpers/run-harness.ts';
import { ERROR_FAULTS } from '../../targets/faults/errors.ts';
import { startFaultyTarget, type Fault } from '../../targets/faulty-proxy.ts';

const CHECK = 'ratelimit.retry-after.honest';
/** The corpus's lying target (every 429 says Retry-After: 1) on a 20 per 6 s sliding window. */
const LYING: Fault = {
  ...ERROR_FAULTS.find((c) => c.name.startsWith('Retry-After lies'))!.fault,
  reference: { rateLimit: { algorithm: 'sliding-window', quota: 20, windowSeconds: 6 } },
};

async function get(baseUrl: string, key: string): Promise<number> {
  const res = await fetch(`${baseUrl}/v1/whatsapp/messages?limit=1`, { headers: { authorization: `Bearer ${key}` } });
  await res.arrayBuffer();
  return res.status;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('ratelimit.retry-after.honest on a key left part-spent', () => {
  it('a lying Retry-After is caught after a slow earlier burst (20 per 6 s sliding, Retry-After 1 s)', async () => {
    const target = await startFaultyTarget(LYING);
    try {
      const key = target.credentials.apiKey!;
      // The earlier burst: 20 admitted over about 2 s, then throttled.
      let sent = 0;
      while ((await get(target.baseUrl, key)) !== 429 && sent++ < 40) await sleep(100);
      expect(sent).toBeLessThan(40);
      // What the runner does before the check: probe until the key is served again (its oldest slot freed).
      for (let tries = 0; (await get(target.baseUrl, key)) === 429 && tries < 200; tries++) await sleep(50);

      const others = createDefaultRegistry().select(['ratelimit'])[0]!.checks.map((c) => c.id).filter((id) => id !== CHECK);
      const outcome = await runHarness({ baseUrl: target.baseUrl, credentials: target.credentials, suites: ['ratelimit'], config: { conformance: { skipChecks: others, maxWaitSeconds: 8 } } });
      expect(failedIds(outcome), resultOf(outcome, CHECK).message).toEqual([CHECK]);
    } finally {
      await target.close();
    }
  }, 60_000);
});
