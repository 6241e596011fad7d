/**
 * headlineOf: the words report.html's banner, the console verdict line and junit.xml lead with. Its exit code
 * agrees with the one `harness run` returns (src/job/run-job.ts exitCodeOf) for every kind of report, and
 * the console line says the same title, coloured on a TTY only.
 */
import { describe, expect, it } from 'vitest';
import { exitCodeOf } from '../../../src/job/run-job.ts';
import { reportIssues } from '../../../src/report/report-schema.ts';
import { ConsoleReporter } from '../../../src/reporters/console-reporter.ts';
import { exitCodeOfReport, headlineOf, reportKind } from '../../../src/report/headline.ts';
import { ALL_KINDS, reportOfKind } from '../../fixtures/reports/report-kinds.ts';
import { richReport } from '../../fixtures/reports/rich-report.ts';

describe('headlineOf', () => {
  it.each(ALL_KINDS)('%s: the exit code is the one the run returned', (kind) => {
    const report = reportOfKind(kind);
    expect(exitCodeOfReport(report)).toBe(exitCodeOf(report));
    expect(headlineOf(report).title).toContain(`(exit ${exitCodeOf(report)})`);
  });

  it.each(ALL_KINDS)('%s fixture is a valid report.json (probe honesty and isolation-tested included)', (kind) => {
    expect(reportIssues(reportOfKind(kind))).toEqual([]);
  });

  it('names each kind of run by what it holds', () => {
    expect(ALL_KINDS.map((k) => reportKind(reportOfKind(k)))).toEqual(['conformance', 'conformance', 'conformance', 'conformance', 'load', 'capacity', 'probe', 'conformance', 'conformance']);
  });

  it('a certified run with a crossed threshold says so: never a plain CERTIFIED for exit 99', () => {
    const h = headlineOf(reportOfKind('crossed'));
    expect(h).toMatchObject({ exitCode: 99, title: 'CERTIFIED — thresholds crossed (exit 99)', tone: 'fail' });
  });

  it('a load run with a crossed threshold leads with it', () => {
    const load = reportOfKind('load');
    const crossed = { ...load, scenarios: load.scenarios!.map((s) => ({ ...s, thresholds: [{ ...s.thresholds[0]!, ok: false }] })) };
    expect(headlineOf(crossed)).toMatchObject({ title: 'THRESHOLDS CROSSED (exit 99)', tone: 'fail' });
  });

  it('capacity: "ceiling not reached" when every step held', () => {
    const cap = reportOfKind('capacity');
    const held = { ...cap, scenarios: cap.scenarios!.map((s) => ({ ...s, capacity: { ...s.capacity!, steps: s.capacity!.steps.map((st) => ({ ...st, ok: true })) } })) };
    expect(headlineOf(held).title).toBe('CAPACITY: ceiling not reached: 800 req/s held, the highest rate tried (exit 0)');
  });

  it('shows generator-bound scenarios when the engine marks them', () => {
    const load = reportOfKind('load');
    const bound = { ...load, scenarios: load.scenarios!.map((s) => ({ ...s, generatorBound: { seconds: [3], worstLoopDelayMs: 120, worstLateShare: 0.12, bounds: { loopDelayMs: 50, lateStartMs: 10, lateShare: 0.01 }, message: 'dropped 12 % of arrivals: every VU was busy' } })) };
    expect(headlineOf(bound).lines).toContainEqual({ label: 'Generator-bound', text: 'send-steady: dropped 12 % of arrivals: every VU was busy', tone: 'warn' });
  });
});

describe('console verdict line', () => {
  function verdictLine(color: boolean, report = reportOfKind('crossed')): string {
    const out: string[] = [];
    new ConsoleReporter({ write: (t) => out.push(t), color }).onEvent({ type: 'run-finished', report, outDir: '/tmp/x' });
    return out.join('').trim();
  }

  it('says the same as the banner, with the level counts', () => {
    expect(verdictLine(false)).toBe('verdict: CERTIFIED — thresholds crossed (exit 99) — MUST 2 passed; SHOULD 1 passed; PROFILE 1 passed');
    expect(verdictLine(false, richReport())).toBe('verdict: NOT-CERTIFIED (exit 1) — MUST 1 passed, 1 failed; SHOULD 0 passed, 1 failed, 1 not run; PROFILE 0 passed, 1 errored');
  });

  it('colours only when asked (a TTY): red for a crossed threshold', () => {
    expect(verdictLine(false)).not.toContain('\u001b[');
    expect(verdictLine(true)).toContain('\u001b[31mverdict: CERTIFIED — thresholds crossed (exit 99)');
  });
});
