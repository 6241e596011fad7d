import { describe, expect, it } from 'vitest';
import type { CheckResult } from '../../../src/conformance/result.ts';
import { junitSuites } from '../../../src/reporters/junit/cases.ts';
import { headlineOf } from '../../../src/report/headline.ts';
import { levelCounts } from '../../../src/report/level-counts.ts';
import { buildReport } from '../../../src/report/report.ts';
import { reportIssues } from '../../../src/report/report-schema.ts';

const check = (id: string, level: CheckResult['level'], status: CheckResult['status'], message?: string): CheckResult => ({
  id,
  suite: id.split('.')[0]!,
  title: id,
  level,
  specRef: 'test',
  status,
  durationMs: 1,
  ...(message ? { message } : {}),
});

const conditions = {
  spanMs: 9000,
  loopDelayMs: { count: 400, p50: 0.2, p90: 2, p99: 180, max: 240 },
  rttMs: { count: 300, p50: 1.2, p90: 8, p99: 90, max: 200 },
};

function report(checks: CheckResult[]) {
  return buildReport({ runId: 'r', startedAt: '2026-11-25T00:00:00.000Z', target: { baseUrl: 'http://127.0.0.1:1', embedded: false }, checks, conditions });
}

describe('"could not decide" in every report', () => {
  it('is counted apart in the level counts, and a MUST one leaves the run incomplete (exit 4)', () => {
    const r = report([check('a.must', 'MUST', 'passed'), check('a.back-off', 'MUST', 'undecided', 'waits 393 → 420 ms (tolerance ±400 ms)'), check('b.x', 'PROFILE', 'error', 'boom')]);
    expect(levelCounts(r.summary)).toBe('MUST 1 passed, 1 could not decide; SHOULD 0 passed; PROFILE 0 passed, 1 errored');
    expect(r.verdict).toBe('incomplete');
    const headline = headlineOf(r);
    expect(headline.exitCode).toBe(4);
    // Where the verdict depended on the conditions, the headline says what they were.
    expect(headline.lines.find((l) => l.label === 'Run conditions')?.text).toMatch(/^1 check\(s\) could not decide under them: event-loop stalls up to 240 ms/);
    // report.json with the status, the counts and the conditions matches schemas/report.schema.json.
    expect(reportIssues(JSON.parse(JSON.stringify(r)))).toEqual([]);
  });

  it('a SHOULD/PROFILE one is a warning: certified with warnings, exit 0', () => {
    const r = report([check('a.must', 'MUST', 'passed'), check('w.back-off', 'PROFILE', 'undecided', 'within ±400 ms')]);
    expect(r.verdict).toBe('certified-with-warnings');
    expect(headlineOf(r).exitCode).toBe(0);
  });

  it('is a skipped testcase in junit.xml, with the measured reason, never a failure or an error', () => {
    const r = report([check('w.back-off', 'PROFILE', 'undecided', 'waits 393 → 420 ms (tolerance ±400 ms)'), check('m.x', 'MUST', 'undecided', 'burst too slow')]);
    const cases = junitSuites(r).flatMap((s) => s.cases).filter((c) => c.classname === 'w' || c.classname === 'm');
    expect(cases.map((c) => c.outcome?.kind)).toEqual(['skipped', 'skipped']);
    expect(cases[0]!.outcome?.message).toBe("could not decide under this run's conditions: waits 393 → 420 ms (tolerance ±400 ms)");
    expect(cases[1]!.outcome?.message).toBe("MUST could not decide under this run's conditions: burst too slow");
  });
});
