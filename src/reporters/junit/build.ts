/**
 * report.json → junit.xml in the shape every common consumer reads: testsuites > testsuite (one per suite, and
 * one per scenario for its thresholds) > testcase (classname = suite, name = "id — title") with failure, error or
 * skipped. Every piece of text is redacted before it is escaped (escaping would hide a secret containing `&`).
 */
import type { CheckResult } from '../../conformance/result.ts';
import type { SecretRegistry } from '../../http/redact.ts';
import type { Report, ScenarioReport } from '../report.ts';
import { cut, evidenceExcerpt } from './excerpt.ts';
import { attrs, xmlText } from './xml.ts';

interface Case {
  classname: string;
  name: string;
  timeS: number;
  outcome?: { kind: 'failure' | 'error' | 'skipped'; message: string; type?: string; body?: string };
}

interface Suite {
  name: string;
  cases: Case[];
}

/** Longest message attribute; the element body has the rest. */
const MESSAGE_LIMIT = 500;

export function buildJunit(report: Report, secrets: SecretRegistry): string {
  const suites = [...checkSuites(report.checks), ...(report.scenarios ?? []).map(thresholdSuite)];
  const clean = (text: string) => secrets.redactText(text);
  const totals = count(suites.flatMap((s) => s.cases));
  const timestamp = report.run.startedAt.replace(/Z$/, '');
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attrs({ name: `harness ${report.run.id} (${report.verdict})`, tests: totals.tests, failures: totals.failures, errors: totals.errors, skipped: totals.skipped, time: seconds(totals.timeS) })}>`,
  ];
  for (const suite of suites) {
    const c = count(suite.cases);
    out.push(`  <testsuite${attrs({ name: clean(suite.name), tests: c.tests, failures: c.failures, errors: c.errors, skipped: c.skipped, time: seconds(c.timeS), timestamp })}>`);
    for (const tc of suite.cases) {
      const head = `    <testcase${attrs({ classname: clean(tc.classname), name: clean(tc.name), time: seconds(tc.timeS) })}`;
      const o = tc.outcome;
      if (!o) {
        out.push(`${head}/>`);
        continue;
      }
      const oAttrs = attrs({ message: clean(cut(o.message, MESSAGE_LIMIT)), type: o.type });
      out.push(`${head}>`, o.body !== undefined ? `      <${o.kind}${oAttrs}>${xmlText(clean(o.body))}</${o.kind}>` : `      <${o.kind}${oAttrs}/>`, '    </testcase>');
    }
    out.push('  </testsuite>');
  }
  out.push('</testsuites>', '');
  return out.join('\n');
}

function checkSuites(checks: readonly CheckResult[]): Suite[] {
  const suites = new Map<string, Suite>();
  for (const check of checks) {
    const suite = suites.get(check.suite) ?? { name: check.suite, cases: [] };
    suites.set(check.suite, suite);
    suite.cases.push(checkCase(check));
  }
  return [...suites.values()];
}

function checkCase(check: CheckResult): Case {
  const base = { classname: check.suite, name: `${check.id} — ${check.title}`, timeS: check.durationMs / 1000 };
  switch (check.status) {
    case 'passed':
      return base;
    case 'skipped':
      return { ...base, outcome: { kind: 'skipped', message: check.message ?? 'skipped' } };
    case 'failed':
      return { ...base, outcome: { kind: 'failure', type: check.level, message: check.message ?? 'failed', body: evidenceExcerpt(check) } };
    case 'error':
      return { ...base, outcome: { kind: 'error', type: check.level, message: check.message ?? 'error', body: evidenceExcerpt(check) } };
  }
}

/** A scenario's thresholds as testcases, so a crossed threshold shows up where CI shows failing tests. */
function thresholdSuite(scenario: ScenarioReport): Suite {
  const classname = `scenario.${scenario.name}`;
  return {
    name: classname,
    cases: scenario.thresholds.map((t) => ({
      classname,
      name: `${t.metric}: ${t.expr}`,
      timeS: 0,
      ...(t.ok ? {} : { outcome: { kind: 'failure' as const, type: 'threshold', message: `${t.metric} ${t.expr} crossed: actual ${t.actual}`, body: `scenario ${scenario.name}: ${t.metric} ${t.expr}, measured ${t.actual}` } }),
    })),
  };
}

function count(cases: readonly Case[]) {
  return {
    tests: cases.length,
    failures: cases.filter((c) => c.outcome?.kind === 'failure').length,
    errors: cases.filter((c) => c.outcome?.kind === 'error').length,
    skipped: cases.filter((c) => c.outcome?.kind === 'skipped').length,
    timeS: cases.reduce((sum, c) => sum + c.timeS, 0),
  };
}

function seconds(s: number): string {
  return s.toFixed(3);
}
