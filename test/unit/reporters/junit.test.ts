import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { SecretRegistry } from '../../../src/http/redact.ts';
import { buildJunit } from '../../../src/reporters/junit/build.ts';
import { reportIssues } from '../../../src/report/report-schema.ts';
import { cut, evidenceExcerpt, EXCERPT_EXCHANGES } from '../../../src/reporters/junit/excerpt.ts';
import { attrs, stripInvalidXml, xmlAttr, xmlText } from '../../../src/reporters/junit/xml.ts';
import { JunitReporter } from '../../../src/reporters/junit-reporter.ts';
import { reportFileOptions, WARNINGS_AS_FAILURES_ENV } from '../../../src/cli/report-file-options.ts';
import type { CheckResult } from '../../../src/conformance/result.ts';
import { HOSTILE, richReport } from '../../fixtures/reports/rich-report.ts';
import { reportOfKind } from '../../fixtures/reports/report-kinds.ts';

type Node = Record<string, any>;
const asArray = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/** Well-formed XML in the common JUnit shape: testsuites > testsuite[...] > testcase[...] > failure|error|skipped. */
function parseJunit(xml: string): Node {
  const valid = XMLValidator.validate(xml);
  if (valid !== true) throw new Error(`not well-formed XML: ${JSON.stringify(valid.err)}`);
  const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', parseAttributeValue: false, trimValues: false }).parse(xml) as Node;
  const root = doc.testsuites as Node;
  expect(root).toBeDefined();
  for (const name of ['@tests', '@failures', '@errors', '@skipped', '@time']) expect(root[name]).toMatch(/^\d+(\.\d+)?$/);
  for (const suite of asArray<Node>(root.testsuite)) {
    for (const name of ['@name', '@tests', '@failures', '@errors', '@skipped', '@time']) expect(suite[name], name).toBeDefined();
    const cases = asArray<Node>(suite.testcase);
    expect(Number(suite['@tests'])).toBe(cases.length);
    expect(Number(suite['@failures'])).toBe(cases.filter((c) => c.failure !== undefined).length);
    expect(Number(suite['@errors'])).toBe(cases.filter((c) => c.error !== undefined).length);
    expect(Number(suite['@skipped'])).toBe(cases.filter((c) => c.skipped !== undefined).length);
    for (const tc of cases) {
      for (const name of ['@classname', '@name', '@time']) expect(tc[name], name).toBeDefined();
      const children = Object.keys(tc).filter((k) => !k.startsWith('@') && k !== '#text');
      expect(children.every((k) => ['failure', 'error', 'skipped', 'system-out'].includes(k)), children.join()).toBe(true);
      expect(children.filter((k) => k !== 'system-out').length).toBeLessThanOrEqual(1);
    }
  }
  return root;
}

describe('xml escaping', () => {
  it('removes characters XML 1.0 forbids and keeps the allowed ones', () => {
    expect(stripInvalidXml('a\u0000b\u0007c\u001bd\uFFFEe\uD800f\tg\nh\ri😀')).toBe('abcdef\tg\nh\ri😀');
  });

  it('escapes text and attributes', () => {
    expect(xmlText('<a> & ]]>')).toBe('&lt;a&gt; &amp; ]]&gt;');
    expect(xmlAttr('"x"\n\ty')).toBe('&quot;x&quot;&#10;&#9;y');
    expect(attrs({ a: 1, b: undefined, c: '<' })).toBe(' a="1" c="&lt;"');
  });
});

describe('evidence excerpt', () => {
  it('has the message, level, spec and each exchange with its body cut', () => {
    const check = richReport().checks[2]!;
    const text = evidenceExcerpt(check);
    expect(text).toContain(check.message!);
    expect(text).toContain('level: SHOULD; spec: RFC 9457 §3');
    expect(text).toContain('GET http://127.0.0.1:8080/v1/nope → 404');
    expect(cut('abcdef', 3)).toBe('abc… [3 more characters cut]');
  });

  it('lists a few exchanges and says how many more there are', () => {
    const exchange = { startedAt: '', durationMs: 1, request: { method: 'GET', url: 'u', headers: {} }, error: 'ECONNRESET' };
    const check: CheckResult = { id: 'a.b', suite: 'a', title: 't', level: 'MUST', specRef: 's', status: 'error', durationMs: 1, evidence: { exchanges: Array(EXCERPT_EXCHANGES + 2).fill(exchange) } };
    const text = evidenceExcerpt(check);
    expect(text).toContain('no response (ECONNRESET)');
    expect(text).toContain('… 2 more exchanges in report.json');
  });
});

describe('junit.xml', () => {
  const secret = 'sk_live_echoed_secret_42';
  const xml = buildJunit(richReport({ hostile: true, secret }), new SecretRegistry([secret]));
  const root = parseJunit(xml);
  const suites = asArray<Node>(root.testsuite);
  const cases = suites.flatMap((s) => asArray<Node>(s.testcase));

  it('has the verdict first, then a testcase per check (classname = suite, name = "id — title") and per threshold', () => {
    expect(suites.map((s) => s['@name'])).toEqual(['harness', 'smoke', 'errors', 'ratelimit', 'scenario.send-steady', 'scenario.list-ramp', 'probe.ratelimit']);
    expect(root['@tests']).toBe(String(cases.length));
    expect(root['@name']).toBe('harness 20261121T061502Z-3f9a1c: NOT-CERTIFIED (exit 1)');
    expect(cases[1]).toMatchObject({ '@classname': 'smoke', '@name': 'smoke.send-text-message — A text message is accepted', '@time': '0.013' });
  });

  it('says why the run failed in its verdict testcase, with the real run time and properties', () => {
    const verdict = cases[0]!;
    expect(verdict['@classname']).toBe('harness.verdict');
    expect(root['@time']).toBe('68.000');
    expect(verdict.failure['@message']).toMatch(/^NOT-CERTIFIED \(exit 1\) — Conformance: MUST 1 passed, 1 failed; SHOULD 0 passed, 1 failed, 1 not run; PROFILE 0 passed, 1 errored; Thresholds: 1 of 4 crossed/);
    const props = asArray<Node>(suites[0]!.properties.property);
    expect(props.map((p) => [p['@name'], p['@value']])).toEqual([['verdict', 'not-certified'], ['exitCode', '1'], ['kind', 'conformance'], ['title', 'NOT-CERTIFIED (exit 1)']]);
  });

  it('MUST failures are failures and errors; SHOULD/PROFILE findings are skipped warnings with their evidence kept', () => {
    const failed = cases.find((c) => c['@name'].startsWith('smoke.list-messages-envelope'))!;
    expect(failed.failure['@message']).toContain('expected pagination.next');
    expect(failed.failure['@type']).toBe('MUST');
    expect(failed.failure['#text']).toContain('GET http://127.0.0.1:8080/v1/whatsapp/messages?limit=2 → 200');
    const errored = cases.find((c) => c['@name'].startsWith('errors.timeout'))!;
    expect(errored.skipped['@message']).toBe('warning (PROFILE errored): check timed out after 10000 ms[0m');
    const should = cases.find((c) => c['@name'].startsWith('errors.unknown-route-404'))!;
    expect(should.skipped['@message']).toBe('warning (SHOULD failed): expected content-type application/problem+json, got text/html');
    expect(should['system-out']).toContain('GET http://127.0.0.1:8080/v1/nope → 404');
    const skipped = cases.find((c) => c['@name'].startsWith('ratelimit.retry-after'))!;
    expect(skipped.skipped['@message']).toBe('no 429 within 500 requests');
    // the MUST failure, the verdict and one crossed threshold; no error
    expect(root['@failures']).toBe('3');
    expect(root['@errors']).toBe('0');
  });

  it('with warningsAsFailures, SHOULD/PROFILE findings are failures and errors again', () => {
    const strict = parseJunit(buildJunit(richReport(), new SecretRegistry(), { warningsAsFailures: true }));
    const all = asArray<Node>(strict.testsuite).flatMap((s) => asArray<Node>(s.testcase));
    expect(all.find((c) => c['@name'].startsWith('errors.unknown-route-404'))!.failure['@type']).toBe('SHOULD');
    expect(all.find((c) => c['@name'].startsWith('errors.timeout'))!.error['@type']).toBe('PROFILE');
  });

  it('turns a crossed threshold into a failing testcase', () => {
    const slow = parseJunit(buildJunit(richReport({ latencyFactor: 2 }), new SecretRegistry()));
    const thresholdCases = asArray<Node>(slow.testsuite).filter((s) => s['@name'].startsWith('scenario.')).flatMap((s) => asArray<Node>(s.testcase));
    expect(thresholdCases.map((c) => c['@name'])).toContain('http_req_duration: p(95)<12');
    expect(thresholdCases.find((c) => c['@name'] === 'http_req_duration: p(95)<12')!.failure['@message']).toContain('actual 20');
  });

  it('a certified run with SHOULD warnings shows no failed test', () => {
    const report = richReport({ mustStatus: 'passed' });
    const clean = parseJunit(buildJunit({ ...report, scenarios: [] }, new SecretRegistry()));
    expect(clean['@failures']).toBe('0');
    expect(clean['@errors']).toBe('0');
    expect(Number(clean['@skipped'])).toBeGreaterThanOrEqual(3);
  });

  it('an unreachable target is an <error> testcase that says why', () => {
    const unreachable = parseJunit(buildJunit(reportOfKind('unreachable'), new SecretRegistry()));
    const [verdict] = asArray<Node>(asArray<Node>(unreachable.testsuite)[0]!.testcase);
    expect(unreachable['@tests']).toBe('1');
    expect(verdict!.error['@type']).toBe('HARNESS_ERR_TARGET_UNREACHABLE');
    expect(verdict!.error['@message']).toBe('TARGET UNREACHABLE (exit 3): http://127.0.0.1:9 refused the connection (ECONNREFUSED) on the first request');
  });

  it('an incomplete run fails its verdict testcase listing the MUST checks not verified', () => {
    const incomplete = parseJunit(buildJunit(reportOfKind('incomplete'), new SecretRegistry()));
    const all = asArray<Node>(incomplete.testsuite).flatMap((s) => asArray<Node>(s.testcase));
    expect(all[0]!.failure['#text']).toContain('MUST checks not verified:\n  auth.login: no login credential in the config\n  ratelimit.429: no 429 came within 500 requests');
    expect(all.find((c) => c['@name'].startsWith('auth.login'))!.skipped['@message']).toBe('MUST not run: no login credential in the config');
    expect(all.find((c) => c['@name'].startsWith('ratelimit.429'))!.skipped['@message']).toBe('MUST passed vacuously (not verified): no 429 came within 500 requests');
  });

  it('a capacity search is a testcase with the sustainable rate and the curve', () => {
    const capacity = parseJunit(buildJunit(reportOfKind('capacity'), new SecretRegistry()));
    const all = asArray<Node>(capacity.testsuite).flatMap((s) => asArray<Node>(s.testcase));
    const tc = all.find((c) => c['@classname'] === 'capacity.list-ramp')!;
    expect(tc['@name']).toBe('capacity under SLO p(99)<50, error budget 1.00 %');
    expect(tc['system-out']).toMatch(/^sustainable rate 800 req\/s\n100\/s → 100\/s achieved/);
    expect(Number(tc['@time'])).toBe(30);
    expect(capacity['@failures']).toBe('0');
  });

  it('a rate-limit probe is a testcase per finding; a dishonest Retry-After is a warning, a failure when asked', () => {
    const probe = parseJunit(buildJunit(reportOfKind('probe'), new SecretRegistry()));
    const all = asArray<Node>(probe.testsuite).flatMap((s) => asArray<Node>(s.testcase)).filter((c) => c['@classname'] === 'probe.ratelimit');
    expect(all.map((c) => c['@name'])).toEqual(['Policy', 'Retry-After', 'Isolation']);
    expect(all[1]!.skipped['@message']).toBe('warning: DISHONEST: Retry-After 1 s, admitted again after 0.8 s');
    expect(probe['@failures']).toBe('0');
    const strict = parseJunit(buildJunit(reportOfKind('probe'), new SecretRegistry(), { warningsAsFailures: true }));
    expect(strict['@failures']).toBe('1');
  });

  it('times are the measured ones, each second counted once: testcases sum to the wall time, suites to their cases', () => {
    // A 68 s run: checks one after another, then a 20 s scenario judged by three thresholds.
    const base = reportOfKind('certified');
    const scenario = { ...richReport().scenarios![0]!, durationMs: 20_000 };
    scenario.thresholds = [scenario.thresholds[0]!, { ...scenario.thresholds[0]!, expr: 'p(99)<500' }, { ...scenario.thresholds[0]!, expr: 'p(50)<100' }];
    const report = { ...base, scenarios: [scenario] };
    const timed = parseJunit(buildJunit(report, new SecretRegistry()));
    const timedSuites = asArray<Node>(timed.testsuite);
    const all = timedSuites.flatMap((s) => asArray<Node>(s.testcase));
    const wall = (Date.parse(report.run.finishedAt) - Date.parse(report.run.startedAt)) / 1000;
    expect(timed['@time']).toBe(wall.toFixed(3));
    const sum = (nodes: Node[]) => nodes.reduce((n, c) => n + Number(c['@time']), 0);
    expect(sum(all)).toBeCloseTo(wall, 2);
    for (const suite of timedSuites) expect(Number(suite['@time']), suite['@name']).toBeCloseTo(sum(asArray<Node>(suite.testcase)), 2);
    // Each check: its own measured duration.
    for (const check of report.checks) expect(all.find((c) => c['@name'].startsWith(`${check.id} `))!['@time']).toBe((check.durationMs / 1000).toFixed(3));
    // The scenario's 20 s run once, on its first threshold; the other two were judged on that same run.
    expect(asArray<Node>(timedSuites.find((s) => s['@name'] === `scenario.${scenario.name}`)!.testcase).map((c) => c['@time'])).toEqual(['20.000', '0.000', '0.000']);
    // The verdict: the rest of the wall time (opening the target, preflight, reports).
    const checksS = report.checks.reduce((n, c) => n + c.durationMs / 1000, 0);
    expect(Number(all[0]!['@time'])).toBeCloseTo(wall - checksS - 20, 2);
  });

  it('a check that ran beside others counts only the time they did not (besideMs): the testcases still sum to the wall time', () => {
    const base = reportOfKind('certified');
    const [first, ...rest] = base.checks;
    // The first check waited 3 s, of which 2.5 s other checks ran too.
    const report = { ...base, checks: [{ ...first!, durationMs: 3000, besideMs: 2500 }, ...rest] };
    const all = asArray<Node>(parseJunit(buildJunit(report, new SecretRegistry())).testsuite).flatMap((s) => asArray<Node>(s.testcase));
    expect(all.find((c) => c['@name'].startsWith(`${first!.id} `))!['@time']).toBe('0.500');
    const wall = (Date.parse(report.run.finishedAt) - Date.parse(report.run.startedAt)) / 1000;
    expect(all.reduce((n, c) => n + Number(c['@time']), 0)).toBeCloseTo(wall, 2);
    expect(reportIssues(report)).toEqual([]);
  });

  it('a scenario from a report written before durationMs was recorded: requests ÷ rps', () => {
    const { durationMs: _none, ...scenario } = { ...richReport().scenarios![0]!, requests: 5000, rps: 500 };
    const old = parseJunit(buildJunit({ ...reportOfKind('load'), scenarios: [scenario] }, new SecretRegistry()));
    const first = asArray<Node>(asArray<Node>(old.testsuite).find((s) => s['@name'] === `scenario.${scenario.name}`)!.testcase)[0]!;
    expect(first['@time']).toBe('10.000');
  });

  it('keeps target markup as text and no secret in the file', () => {
    expect(xml).not.toContain('<script>');
    expect(xml).not.toContain(secret);
    expect(JSON.stringify(root)).toContain(HOSTILE.slice(0, 20));
  });

  it('JunitReporter takes warningsAsFailures as the option the CLI reads once (--junit-warnings-as-failures or HARNESS_JUNIT_WARNINGS_AS_FAILURES=1)', async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'junit-strict-'));
    const options = reportFileOptions(undefined, { [WARNINGS_AS_FAILURES_ENV]: '1' });
    await new JunitReporter(new SecretRegistry(), () => {}, options.junit).onEvent({ type: 'run-finished', report: reportOfKind('probe'), outDir });
    expect(parseJunit(readFileSync(join(outDir, 'junit.xml'), 'utf8'))['@failures']).toBe('1');
    expect(reportFileOptions(true, {}).junit?.warningsAsFailures).toBe(true);
    expect(reportFileOptions(undefined, {}).junit?.warningsAsFailures).toBe(false);
  });

  it('JunitReporter never reads the environment: a library call is not steered by a variable some earlier code set', async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'junit-env-'));
    process.env[WARNINGS_AS_FAILURES_ENV] = '1';
    try {
      await new JunitReporter(new SecretRegistry(), () => {}).onEvent({ type: 'run-finished', report: reportOfKind('probe'), outDir });
    } finally {
      delete process.env[WARNINGS_AS_FAILURES_ENV];
    }
    expect(parseJunit(readFileSync(join(outDir, 'junit.xml'), 'utf8'))['@failures']).toBe('0');
  });

  it('JunitReporter writes junit.xml on run-finished and logs its path', async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'junit-reporter-'));
    const lines: string[] = [];
    const reporter = new JunitReporter(new SecretRegistry(), (line) => lines.push(line));
    await reporter.onEvent({ type: 'suite-finished', suite: 's' });
    await reporter.onEvent({ type: 'run-finished', report: richReport(), outDir });
    expect(lines).toEqual([`junit.xml: ${join(outDir, 'junit.xml')}`]);
    parseJunit(readFileSync(join(outDir, 'junit.xml'), 'utf8'));
  });
});
