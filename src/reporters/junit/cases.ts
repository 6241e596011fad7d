/**
 * report.json → JUnit testcases, so a CI test tab says why a job failed and what to look at:
 * - `harness.verdict` first: the headline (src/report/headline.ts) as one testcase — an `<error>` when the run
 *   was stopped (unreachable, lost, interrupted: the reason), a `<failure>` when the exit code is another non-zero
 *   (not certified, incomplete with the MUST checks not run, thresholds crossed), passing otherwise;
 * - one per check: MUST failures are `<failure>`s and MUST errors `<error>`s; a MUST check that did not run is
 *   `<skipped>` saying "MUST not run"; a vacuous pass is `<skipped>` with what it lacked; SHOULD and PROFILE
 *   findings are warnings: `<skipped message="warning …">` by default, so a run that exits 0 shows no red test, or
 *   `<failure>` / `<error>` with warningsAsFailures (HARNESS_JUNIT_WARNINGS_AS_FAILURES=1);
 * - one per scenario threshold (a crossed one fails: the run exits 99), one per capacity search and one per
 *   rate-limit probe finding (warnings, like SHOULD findings: those commands exit 0).
 * Times are what the run measured, each second counted once, so a CI that sums testcase times and one that reads
 * the testsuite times both show the run's real length (a report of an 11 s run says 11 s, not 71): a check's
 * testcase has its measured duration (checks run one after another; one that ran beside others, its duration less
 * the time they ran too: `besideMs`); a scenario's measured run is counted on its
 * first testcase (its other thresholds were judged on the same run: 0 s); a probe's findings come from the probe,
 * which is the whole of a probe run; the verdict testcase has the rest of the wall time (opening the target,
 * preflight, hooks, reports). Each testsuite's time is the sum of its testcases', testsuites' the wall time.
 */
import type { CheckResult } from '../../conformance/result.ts';
import { headlineOf, type HeadlineLine } from '../../report/headline.ts';
import { probeFindings } from '../../report/probe-findings.ts';
import type { Report, ScenarioReport } from '../../report/report.ts';
import { evidenceExcerpt } from './excerpt.ts';

export interface Case {
  classname: string;
  name: string;
  timeS: number;
  outcome?: { kind: 'failure' | 'error' | 'skipped'; message: string; type?: string; body?: string };
  /** Shown by CI tabs beside the testcase (what passed, what was measured). */
  systemOut?: string;
}

export interface Suite {
  name: string;
  cases: Case[];
  properties?: Record<string, string>;
}

export interface JunitOptions {
  /** SHOULD / PROFILE / probe findings as `<failure>` instead of `<skipped>`. @default false */
  warningsAsFailures?: boolean;
}

export function junitSuites(report: Report, options: JunitOptions = {}): Suite[] {
  const warn = options.warningsAsFailures === true;
  const measured = [
    ...checkSuites(report.checks, warn),
    ...(report.scenarios ?? []).map(scenarioSuite),
  ];
  const counted = measured.flatMap((suite) => suite.cases).reduce((sum, c) => sum + c.timeS, 0);
  // A probe run is the probe and nothing else: its findings' time is the run's, less what was counted already.
  const probe = report.rateLimit ? [probeSuite(report, warn, Math.max(0, runSeconds(report) - counted))] : [];
  const probeS = probe.reduce((sum, suite) => sum + suite.cases.reduce((n, c) => n + c.timeS, 0), 0);
  return [verdictSuite(report, Math.max(0, runSeconds(report) - counted - probeS)), ...measured, ...probe];
}

/** The run's wall time: finishedAt − startedAt (testsuites' time). */
export function runSeconds(report: Report): number {
  const s = (Date.parse(report.run.finishedAt) - Date.parse(report.run.startedAt)) / 1000;
  return Number.isFinite(s) && s > 0 ? s : 0;
}

/** `ownS`: the wall time no check, scenario or probe took (opening the target, preflight, hooks, reports). */
function verdictSuite(report: Report, ownS: number): Suite {
  const h = headlineOf(report);
  const facts = h.lines.map((l) => `${l.label}: ${l.text}`).join('\n');
  const base = { classname: 'harness.verdict', name: `${h.what}: ${h.title}`, timeS: ownS, systemOut: facts };
  let tc: Case = base;
  if (report.run.aborted) {
    tc = { ...base, outcome: { kind: 'error', type: report.run.aborted.code, message: `${h.title}: ${report.run.aborted.message}`, body: facts } };
  } else if (h.exitCode !== 0) {
    const notRun = report.checks.filter((c) => c.level === 'MUST' && (c.status !== 'passed' && c.status !== 'failed' || c.vacuous !== undefined));
    const body = [facts, ...(notRun.length ? ['', 'MUST checks not verified:', ...notRun.map((c) => `  ${c.id}: ${c.vacuous ?? c.message ?? c.status}`)] : [])].join('\n');
    tc = { ...base, outcome: { kind: 'failure', type: report.verdict, message: `${h.title} — ${h.lines.map((l) => `${l.label}: ${l.text}`).join('; ')}`, body } };
  }
  const selection: Record<string, string> = report.selection ? { selection: `${report.selection.selected} of ${report.selection.catalogue} checks` } : {};
  return { name: 'harness', cases: [tc], properties: { verdict: report.verdict, exitCode: String(h.exitCode), kind: h.kind, title: h.title, ...selection } };
}

function checkSuites(checks: readonly CheckResult[], warn: boolean): Suite[] {
  const suites = new Map<string, Suite>();
  for (const check of checks) {
    const suite = suites.get(check.suite) ?? { name: check.suite, cases: [] };
    suites.set(check.suite, suite);
    suite.cases.push(checkCase(check, warn));
  }
  return [...suites.values()];
}

function checkCase(check: CheckResult, warn: boolean): Case {
  // A check that ran beside others has only the time they did not count already (besideMs).
  const base = { classname: check.suite, name: `${check.id} — ${check.title}`, timeS: (check.durationMs - (check.besideMs ?? 0)) / 1000 };
  const must = check.level === 'MUST';
  switch (check.status) {
    case 'passed':
      return check.vacuous !== undefined ? { ...base, outcome: { kind: 'skipped', message: `${must ? 'MUST ' : ''}passed vacuously (not verified): ${check.vacuous}` } } : base;
    case 'skipped':
      return { ...base, outcome: { kind: 'skipped', message: `${must ? 'MUST not run: ' : ''}${check.message ?? 'skipped'}` } };
    case 'undecided':
      // Never a failure and never a pass: skipped, with the measured reason (a MUST one leaves the run incomplete).
      return { ...base, outcome: { kind: 'skipped', type: check.level, message: `${must ? 'MUST ' : ''}could not decide under this run's conditions: ${check.message ?? 'no reason given'}` }, systemOut: evidenceExcerpt(check) };
    case 'failed':
    case 'error': {
      const kind = check.status === 'failed' ? 'failure' : 'error';
      const message = check.message ?? check.status;
      if (must || warn) return { ...base, outcome: { kind, type: check.level, message, body: evidenceExcerpt(check) } };
      return { ...base, outcome: { kind: 'skipped', type: check.level, message: `warning (${check.level} ${check.status === 'failed' ? 'failed' : 'errored'}): ${message}` }, systemOut: evidenceExcerpt(check) };
    }
  }
}

/** A scenario's thresholds (a crossed one fails: the run exits 99) and, after a capacity search, its finding. */
function scenarioSuite(scenario: ScenarioReport): Suite {
  const classname = `scenario.${scenario.name}`;
  // The measured length; a report written before it was recorded: requests ÷ rps (rps = requests ÷ that length).
  const runS = scenario.durationMs !== undefined ? scenario.durationMs / 1000 : scenario.rps > 0 ? scenario.requests / scenario.rps : scenario.timeline.length;
  // The run is counted once, on the scenario's first testcase: every threshold was judged on that same run.
  let first = true;
  const once = (): number => {
    const s = first ? runS : 0;
    first = false;
    return s;
  };
  const cases: Case[] = scenario.thresholds.map((t) => ({
    classname,
    name: `${t.metric}: ${t.expr}`,
    timeS: once(),
    systemOut: t.notEvaluated ? `not evaluated: ${t.notEvaluated}` : `measured ${t.actual}`,
    ...(t.ok
      ? {}
      : t.notEvaluated
        ? { outcome: { kind: 'failure' as const, type: 'threshold', message: `${t.metric} ${t.expr} not evaluated: ${t.notEvaluated}`, body: `scenario ${scenario.name}: ${t.metric} ${t.expr} not evaluated: ${t.notEvaluated}` } }
        : { outcome: { kind: 'failure' as const, type: 'threshold', message: `${t.metric} ${t.expr} crossed: actual ${t.actual}`, body: `scenario ${scenario.name}: ${t.metric} ${t.expr}, measured ${t.actual}` } }),
  }));
  if (scenario.capacity) {
    const cap = scenario.capacity;
    const curve = cap.steps.map((s) => `${s.rate}/s → ${s.achievedRps}/s achieved, p99 ${s.p99} ms, errors ${(s.errorRate * 100).toFixed(2)} % ${s.ok ? 'held' : 'broke'}`).join('\n');
    const name = `capacity under SLO ${cap.slo}, error budget ${(cap.errorBudget * 100).toFixed(2)} %`;
    // harness capacity exits 0 whatever it finds: "no sustainable rate" is a finding shown as skipped, not a red test.
    const timeS = once();
    cases.push(cap.sustainableRps > 0
      ? { classname: `capacity.${scenario.name}`, name, timeS, systemOut: `sustainable rate ${cap.sustainableRps} req/s\n${curve}` }
      : { classname: `capacity.${scenario.name}`, name, timeS, outcome: { kind: 'skipped', message: 'no sustainable rate: the start rate already broke the SLO or the error budget' }, systemOut: curve });
  }
  return { name: classname, cases };
}

/** The rate-limit probe's findings (policy match, Retry-After honesty, isolation), the same lines as the banner. */
function probeSuite(report: Report, warn: boolean, probeS: number): Suite {
  const cases = probeFindings(report.rateLimit!).map((line: HeadlineLine, i): Case => {
    // Every finding comes from the same probe: its time is counted once, on the first.
    const base = { classname: 'probe.ratelimit', name: line.label, timeS: i === 0 ? probeS : 0, systemOut: line.text };
    if (line.tone === 'pass') return base;
    if (line.tone === 'neutral') return { ...base, outcome: { kind: 'skipped', message: `not established: ${line.text}` } };
    return { ...base, outcome: warn ? { kind: 'failure', type: 'probe', message: line.text } : { kind: 'skipped', type: 'probe', message: `warning: ${line.text}` } };
  });
  return { name: 'probe.ratelimit', cases };
}
