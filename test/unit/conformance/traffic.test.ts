/** The run's traffic log stays bounded in bytes and in server errors kept, while counting everything. */
import { describe, expect, it } from 'vitest';
import { TrafficLog } from '../../../src/conformance/traffic.ts';
import type { Exchange } from '../../../src/http/exchange.ts';

const exchange = (status: number, bodyBytes: number): Exchange => ({
  startedAt: '2026-01-01T00:00:00.000Z',
  durationMs: 1,
  request: { method: 'GET', url: 'http://127.0.0.1:1/v1/x', headers: {} },
  response: { status, headers: {}, body: 'a'.repeat(bodyBytes) },
});

describe('TrafficLog', () => {
  it('keeps exchanges only while their bodies fit the byte bound, and counts the rest', () => {
    const log = new TrafficLog({ maxKeptBytes: 10_000 });
    log.record('t.a', Array.from({ length: 10 }, () => exchange(200, 3000)));
    expect(log.total).toBe(10);
    expect(log.exchanges.length).toBe(2);
    // A small exchange later still fits the room that is left.
    log.record('t.b', [exchange(200, 100)]);
    expect(log.exchanges.map((e) => e.checkId)).toEqual(['t.a', 't.a', 't.b']);
  });

  it('keeps a bounded number of server errors but counts them all', () => {
    const log = new TrafficLog({ maxServerErrors: 3 });
    log.record('t.a', Array.from({ length: 7 }, () => exchange(500, 10)));
    expect(log.serverErrors.length).toBe(3);
    expect(log.serverErrorCount).toBe(7);
  });
});
