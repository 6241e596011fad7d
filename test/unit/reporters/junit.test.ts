import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { SecretRegistry } from '../../../src/http/redact.ts';
import { buildJunit } from '../../../src/reporters/junit/build.ts';
import { cut, evidenceExcerpt, EXCERPT_EXCHANGES } from '../../../src/reporters/junit/excerpt.ts';
import { attrs, stripInvalidXml, xmlAttr, xmlText } from '../../../src/reporters/junit/xml.ts';
import { JunitReporter } from '../../../src/reporters/junit-reporter.ts';
import type { CheckResult } from '../../../src/conformance/result.ts';
import { HOSTILE, richReport } from '../../fixtures/reports/rich-report.ts';

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
      expect(children.every((k) => ['failure', 'error', 'skipped'].includes(k)), children.join()).toBe(true);
      expect(children.length).toBeLessThanOrEqual(1);
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

  it('has a testcase per check (classname = suite, name = "id — title") and per threshold', () => {
    expect(suites.map((s) => s['@name'])).toEqual(['smoke', 'errors', 'ratelimit', 'scenario.send-steady', 'scenario.list-ramp']);
    expect(root['@tests']).toBe(String(cases.length));
    expect(cases[0]).toMatchObject({ '@classname': 'smoke', '@name': 'smoke.send-text-message — A text message is accepted', '@time': '0.013' });
  });

  it('reports failures with message and evidence, errors as <error>, skips with their reason', () => {
    const failed = cases.find((c) => c['@name'].startsWith('smoke.list-messages-envelope'))!;
    expect(failed.failure['@message']).toContain('expected pagination.next');
    expect(failed.failure['@type']).toBe('MUST');
    expect(failed.failure['#text']).toContain('GET http://127.0.0.1:8080/v1/whatsapp/messages?limit=2 → 200');
    const errored = cases.find((c) => c['@name'].startsWith('errors.timeout'))!;
    expect(errored.error['@message']).toBe('check timed out after 10000 ms[0m');
    const skipped = cases.find((c) => c['@name'].startsWith('ratelimit.retry-after'))!;
    expect(skipped.skipped['@message']).toBe('no 429 within 500 requests');
    expect(root['@failures']).toBe('3');
    expect(root['@errors']).toBe('1');
    expect(root['@skipped']).toBe('1');
  });

  it('turns a crossed threshold into a failing testcase', () => {
    const slow = parseJunit(buildJunit(richReport({ latencyFactor: 2 }), new SecretRegistry()));
    const thresholdCases = asArray<Node>(slow.testsuite).filter((s) => s['@name'].startsWith('scenario.')).flatMap((s) => asArray<Node>(s.testcase));
    expect(thresholdCases.map((c) => c['@name'])).toContain('http_req_duration: p(95)<12');
    expect(thresholdCases.find((c) => c['@name'] === 'http_req_duration: p(95)<12')!.failure['@message']).toContain('actual 20');
  });

  it('keeps target markup as text and no secret in the file', () => {
    expect(xml).not.toContain('<script>');
    expect(xml).not.toContain(secret);
    expect(JSON.stringify(root)).toContain(HOSTILE.slice(0, 20));
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
