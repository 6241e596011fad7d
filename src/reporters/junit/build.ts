/**
 * report.json → junit.xml in the shape every common consumer reads: testsuites > testsuite (properties first) >
 * testcase (classname, name, time) with failure, error or skipped, then system-out. Which testcases there are and
 * what each says: cases.ts. Every piece of text is redacted before it is escaped (escaping would hide a secret
 * containing `&`).
 */
import type { SecretRegistry } from '../../http/redact.ts';
import { headlineOf } from '../../report/headline.ts';
import type { Report } from '../../report/report.ts';
import { junitSuites, runSeconds, type Case, type JunitOptions } from './cases.ts';
import { cut } from './excerpt.ts';
import { attrs, xmlText } from './xml.ts';

/** Longest message attribute; the element body has the rest. */
const MESSAGE_LIMIT = 500;

export function buildJunit(report: Report, secrets: SecretRegistry, options: JunitOptions = {}): string {
  const suites = junitSuites(report, options);
  const clean = (text: string) => secrets.redactText(text);
  const totals = { ...count(suites.flatMap((s) => s.cases)), timeS: runSeconds(report) };
  const timestamp = report.run.startedAt.replace(/Z$/, '');
  const title = headlineOf(report).title;
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attrs({ name: clean(`harness ${report.run.id}: ${title}`), tests: totals.tests, failures: totals.failures, errors: totals.errors, skipped: totals.skipped, time: seconds(totals.timeS) })}>`,
  ];
  for (const suite of suites) {
    const c = count(suite.cases);
    out.push(`  <testsuite${attrs({ name: clean(suite.name), tests: c.tests, failures: c.failures, errors: c.errors, skipped: c.skipped, time: seconds(c.timeS), timestamp })}>`);
    if (suite.properties) {
      out.push('    <properties>', ...Object.entries(suite.properties).map(([name, value]) => `      <property${attrs({ name, value: clean(value) })}/>`), '    </properties>');
    }
    for (const tc of suite.cases) out.push(...testcase(tc, clean));
    out.push('  </testsuite>');
  }
  out.push('</testsuites>', '');
  return out.join('\n');
}

function testcase(tc: Case, clean: (text: string) => string): string[] {
  const head = `    <testcase${attrs({ classname: clean(tc.classname), name: clean(tc.name), time: seconds(tc.timeS) })}`;
  const o = tc.outcome;
  const inner: string[] = [];
  if (o) {
    const oAttrs = attrs({ message: clean(cut(o.message, MESSAGE_LIMIT)), type: o.type });
    inner.push(o.body !== undefined ? `      <${o.kind}${oAttrs}>${xmlText(clean(o.body))}</${o.kind}>` : `      <${o.kind}${oAttrs}/>`);
  }
  if (tc.systemOut) inner.push(`      <system-out>${xmlText(clean(tc.systemOut))}</system-out>`);
  return inner.length ? [`${head}>`, ...inner, '    </testcase>'] : [`${head}/>`];
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
