/**
 * Certified means the whole catalogue: a run of selected checks (`--check`, `--suite`, `conformance.suites`,
 * `conformance.skipChecks`) records its selection in report.json and never reads as a certification — the console
 * verdict line, report.html's banner (its embedded headline and page title) and junit.xml's verdict testcase all
 * lead with "PASSED — 2 of 163 checks selected; not a certification", and a failing selection keeps its verdict
 * with the selection beside it. selectionOf (src/job/run-job.ts) decides what counts as a selection.
 */
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../../src/config/defaults.ts';
import type { FrozenConfig } from '../../../src/config/types.ts';
import type { CheckResult } from '../../../src/conformance/result.ts';
import { SecretRegistry } from '../../../src/http/redact.ts';
import { exitCodeOf, selectionOf } from '../../../src/job/run-job.ts';
import { ConsoleReporter } from '../../../src/reporters/console-reporter.ts';
import { headlineOf } from '../../../src/report/headline.ts';
import { reportHtml } from '../../../src/reporters/html-reporter.ts';
import { buildJunit } from '../../../src/reporters/junit/build.ts';
import { buildReport, type Selection } from '../../../src/report/report.ts';
import { reportIssues } from '../../../src/report/report-schema.ts';
import { createDefaultRegistry } from '../../../suites/index.ts';

const check = (id: string, level: CheckResult['level'], status: CheckResult['status'] = 'passed'): CheckResult => ({
  id, suite: id.split('.')[0]!, title: `${id} holds`, level, specRef: 'SERVICE-SPEC §4', status, durationMs: 10, ...(status === 'failed' ? { message: 'expected 401, got 200' } : {}),
});

const SELECTION: Selection = { selected: 2, catalogue: 163, checks: ['smoke.send-text-message', 'auth.api-key.unknown-key'] };
const passing = [check('smoke.send-text-message', 'MUST'), check('auth.api-key.unknown-key', 'MUST')];

function report(checks: CheckResult[], selection?: Selection) {
  return buildReport({ runId: 'r1', startedAt: '2026-01-01T00:00:00.000Z', finishedAt: '2026-01-01T00:00:02.000Z', target: { baseUrl: 'http://127.0.0.1:1', embedded: false }, checks, ...(selection ? { selection } : {}) });
}

function consoleVerdict(r: ReturnType<typeof report>): string {
  const out: string[] = [];
  new ConsoleReporter({ write: (t) => out.push(t), color: false }).onEvent({ type: 'run-finished', report: r, outDir: '/tmp/x' });
  return out.join('').split('\n').find((l) => l.startsWith('verdict: '))!;
}

function junitVerdict(r: ReturnType<typeof report>) {
  const xml = buildJunit(r, new SecretRegistry());
  const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(xml) as { testsuites: { testsuite: Array<Record<string, any>> } };
  const first = parsed.testsuites.testsuite[0]!;
  const props = ([] as Array<{ name: string; value: string }>).concat(first.properties.property);
  return { testcase: first.testcase as Record<string, any>, props: Object.fromEntries(props.map((p) => [p.name, p.value])) };
}

function htmlHeadline(r: ReturnType<typeof report>) {
  const html = reportHtml(r, new SecretRegistry());
  const data = JSON.parse(/<script type="application\/json" id="page-data">([^]*?)<\/script>/.exec(html)![1]!) as { headline: { title: string; lines: Array<{ label: string; text: string }> }; report: { selection?: Selection } };
  return { html, data };
}

describe('a passing selection', () => {
  const r = report(passing, SELECTION);

  it('is not certified: verdict selection-passed, exit 0, the selection recorded in a valid report.json', () => {
    expect(r.verdict).toBe('selection-passed');
    expect(r.selection).toEqual(SELECTION);
    expect(exitCodeOf(r)).toBe(0);
    expect(reportIssues(JSON.parse(JSON.stringify(r)))).toEqual([]);
    // The same checks as the whole catalogue would certify.
    expect(report(passing).verdict).toBe('certified');
  });

  it('the console verdict line says PASSED, how many of the catalogue, and not a certification', () => {
    expect(consoleVerdict(r)).toBe('verdict: PASSED — 2 of 163 checks selected; not a certification (exit 0) — MUST 2 passed; SHOULD 0 passed; PROFILE 0 passed');
  });

  it('report.html: the banner title and page title say it, and the first fact line names the selection', () => {
    const { html, data } = htmlHeadline(r);
    expect(data.headline.title).toBe('PASSED — 2 of 163 checks selected; not a certification (exit 0)');
    expect(data.headline.lines[0]).toEqual({ label: 'Selection', text: '2 of 163 checks selected (checks smoke.send-text-message, auth.api-key.unknown-key): not a certification, which needs every catalogue check', tone: 'neutral' });
    expect(data.report.selection).toEqual(SELECTION);
    expect(html).toMatch(/<title>PASSED — 2 of 163 checks selected; not a certification \(exit 0\) — harness report r1<\/title>/);
    expect(html).not.toMatch(/CERTIFIED/);
  });

  it('junit.xml: the first testcase (harness.verdict) and its properties say it', () => {
    const { testcase, props } = junitVerdict(r);
    expect(testcase.classname).toBe('harness.verdict');
    expect(testcase.name).toBe('harness run: 2 of 163 conformance checks: PASSED — 2 of 163 checks selected; not a certification (exit 0)');
    expect(testcase.failure).toBeUndefined();
    expect(props).toMatchObject({ verdict: 'selection-passed', exitCode: '0', selection: '2 of 163 checks' });
    expect(testcase['system-out']).toMatch(/^Selection: 2 of 163 checks selected/);
  });
});

describe('a failing selection keeps its verdict, with the selection beside it', () => {
  const r = report([passing[0]!, check('auth.api-key.unknown-key', 'MUST', 'failed')], SELECTION);

  it('in all three reports', () => {
    expect(r.verdict).toBe('not-certified');
    expect(exitCodeOf(r)).toBe(1);
    expect(consoleVerdict(r)).toMatch(/^verdict: NOT-CERTIFIED — 2 of 163 checks selected \(exit 1\) — MUST 1 passed, 1 failed/);
    expect(htmlHeadline(r).data.headline.title).toBe('NOT-CERTIFIED — 2 of 163 checks selected (exit 1)');
    const { testcase } = junitVerdict(r);
    expect(testcase.failure.message).toMatch(/^NOT-CERTIFIED — 2 of 163 checks selected \(exit 1\) — Selection: 2 of 163 checks selected/);
  });
});

describe('selectionOf: what counts as a selection', () => {
  const registry = createDefaultRegistry();
  const all = registry.checkIds.length;
  const config = (over: Partial<FrozenConfig['conformance']> = {}) => {
    const c = defaultConfig();
    return { ...c, conformance: { ...c.conformance, ...over } } as FrozenConfig;
  };

  it('the whole catalogue is none', () => {
    expect(selectionOf(registry, registry.select([]), config())).toEqual({});
  });

  it('suites (flag or config), checks (--check) and skipped ids each are one', () => {
    const smoke = registry.select(['smoke']);
    expect(selectionOf(registry, smoke, config({ suites: ['smoke'] })).selection).toEqual({ selected: smoke[0]!.checks.length, catalogue: all, suites: ['smoke'] });
    const only = registry.restrictTo(['smoke.send-text-message', 'auth.api-key.unknown-key']);
    expect(selectionOf(only, only.select([]), config()).selection).toEqual({ selected: 2, catalogue: all, checks: ['smoke.send-text-message', 'auth.api-key.unknown-key'] });
    const skipped = selectionOf(registry, registry.select([]), config({ skipChecks: ['smoke.send-text-message'] })).selection!;
    expect(skipped).toEqual({ selected: all - 1, catalogue: all, skipChecks: ['smoke.send-text-message'] });
  });
});
