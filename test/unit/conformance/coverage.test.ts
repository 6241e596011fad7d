import { describe, expect, it } from 'vitest';
import { coverageOf } from '../../../src/conformance/coverage.ts';
import { CLAUSE_IDS, SPEC_CLAUSES } from '../../../src/conformance/spec-clauses.ts';
import { TrafficLog } from '../../../src/conformance/traffic.ts';
import type { Exchange } from '../../../src/http/exchange.ts';
import { createDefaultRegistry } from '../../../suites/index.ts';

describe('coverage', () => {
  it('lists every clause: covered with its checks, not covered, or untestable with the reason', () => {
    const coverage = coverageOf([
      { id: 'a.one', clauses: ['§2.2', '§4.send'] },
      { id: 'a.two', clauses: ['§2.2'] },
      { id: 'a.three', clauses: ['§1.voice'] },
    ]);
    expect(coverage.clauses).toHaveLength(SPEC_CLAUSES.length);
    const byId = new Map(coverage.clauses.map((c) => [c.id, c]));
    expect(byId.get('§2.2')).toMatchObject({ status: 'covered', checks: ['a.one', 'a.two'] });
    expect(byId.get('§2.5')).toMatchObject({ status: 'not-covered', checks: [] });
    expect(byId.get('§1.voice')).toMatchObject({ status: 'untestable', reason: expect.stringContaining('not shown') });
    expect(coverage.covered + coverage.notCovered + coverage.untestable).toBe(SPEC_CLAUSES.length);
  });

  it('clause ids are unique, and only voice, SDKs and the dashboard are untestable', () => {
    expect(CLAUSE_IDS.size).toBe(SPEC_CLAUSES.length);
    expect(SPEC_CLAUSES.filter((c) => c.untestable).map((c) => c.id)).toEqual(['§1.voice', '§1.sdks', '§5.4', '§9.2']);
  });

  it('every built-in check names only known clauses (the registry refuses others)', () => {
    const registry = createDefaultRegistry();
    for (const suite of registry.suites) for (const check of suite.checks) for (const clause of check.clauses) expect(CLAUSE_IDS.has(clause)).toBe(true);
  });
});

describe('TrafficLog', () => {
  const exchange = (status: number | undefined): Exchange => ({
    startedAt: '2026-01-01T00:00:00.000Z',
    durationMs: 1,
    request: { method: 'GET', url: 'http://127.0.0.1/x', headers: {} },
    ...(status === undefined ? { error: 'ECONNRESET: closed' } : { response: { status, headers: {}, body: '' } }),
  });

  it('tags exchanges by check and keeps server errors apart', () => {
    const log = new TrafficLog();
    log.record('a.one', [exchange(200), exchange(503)]);
    log.record('a.two', [exchange(undefined), exchange(500)]);
    expect(log.total).toBe(4);
    expect(log.exchanges.map((t) => t.checkId)).toEqual(['a.one', 'a.one', 'a.two', 'a.two']);
    expect(log.serverErrors.map((t) => [t.checkId, t.exchange.response?.status])).toEqual([
      ['a.one', 503],
      ['a.two', 500],
    ]);
  });
});
