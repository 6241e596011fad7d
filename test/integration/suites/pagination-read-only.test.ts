/**
 * The pagination suite against a target without a sandbox (conformance.sandbox: false): the walks run read-only
 * over the data that is there — more than the read-only walks read, so they are cut and compared over the range
 * both cover — and the checks that need seeding are skipped with that reason.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceTarget } from '../../../src/target/index.ts';
import type { StartedReferenceTarget } from '../../../src/target/types.ts';
import { onReference, runHarness } from '../../helpers/run-harness.ts';

let target: StartedReferenceTarget;

beforeAll(async () => {
  target = await startReferenceTarget({ host: '127.0.0.1', port: 0, rateLimit: { quota: 100_000 } });
  // Existing data, put there behind the harness's back: 130 messages from three senders, some sharing an instant.
  const base = Date.parse('2025-03-01T00:00:00.000Z');
  for (let i = 0; i < 130; i++) {
    const res = await fetch(`${target.baseUrl}/v1/sandbox/inbound`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${target.credentials.apiKeys.full}` },
      body: JSON.stringify({ from: `1555000000${i % 3}`, text: `existing ${i}`, timestamp: new Date(base + Math.floor(i / 2) * 1000).toISOString() }),
    });
    expect(res.status).toBe(201);
  }
});

afterAll(async () => {
  await target.close();
});

describe('pagination without a sandbox', () => {
  it('walks read-only: the walk checks pass, the seeding checks are skipped', async () => {
    const outcome = await runHarness({ ...onReference(target), suites: ['pagination'], config: { conformance: { sandbox: false } } });
    const byStatus = (status: string) => outcome.report.checks.filter((c) => c.status === status).map((c) => c.id).sort();
    expect(byStatus('failed')).toEqual([]);
    expect(byStatus('error')).toEqual([]);
    expect(byStatus('skipped')).toEqual([
      'pagination.filter.from',
      'pagination.filter.since-inclusive',
      'pagination.filter.until-exclusive',
      'pagination.seed.sandbox-accepts',
      'pagination.stability.insert-during-walk',
    ]);
    for (const check of outcome.report.checks.filter((c) => c.status === 'skipped')) expect(check.message).toMatch(/no sandbox/);
    // Skipped PROFILE checks are not warnings. The MUST walk rule (SERVICE-SPEC §2.4) can only be judged whole on a
    // list known not to change: read-only, it sees every cursor advance and says that is all it saw.
    const walkRule = outcome.report.checks.find((c) => c.id === 'pagination.walk.each-item-once')!;
    expect(walkRule.status).toBe('passed');
    expect(walkRule.vacuous).toMatch(/no sandbox seeds/);
    expect(outcome.report.verdict).toBe('incomplete');
  });
});
