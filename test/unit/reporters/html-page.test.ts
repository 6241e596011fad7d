import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SecretRegistry } from '../../../src/http/redact.ts';
import { pageAssets, readClient } from '../../../src/reporters/html/assets.ts';
import { escapeHtml, jsonForScript, scriptSafe } from '../../../src/reporters/html/escape.ts';
import { renderPage } from '../../../src/reporters/html/page.ts';
import { HtmlReporter, reportHtml } from '../../../src/reporters/html-reporter.ts';
import { HOSTILE, richReport } from '../../fixtures/reports/rich-report.ts';

/** The JSON inside <script type="application/json" id="page-data">. */
function embeddedData(html: string): unknown {
  const match = /<script type="application\/json" id="page-data">([^]*?)<\/script>/.exec(html);
  if (!match) throw new Error('no page-data element');
  return JSON.parse(match[1]!);
}

describe('escape', () => {
  it('escapes text for HTML', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });

  it('embeds JSON with no "<" left and reads back the same value', () => {
    const value = { body: '</script><script>alert(1)</script><!-- & \u2028 \u2029 >' };
    const text = jsonForScript(value);
    expect(text).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(text)).toEqual(value);
  });

  it('keeps inlined scripts from closing their element', () => {
    expect(scriptSafe('var s = "</script>"; var t = "</SCRIPT"')).toBe('var s = "<\\/script>"; var t = "<\\/SCRIPT"');
  });
});

describe('page assets', () => {
  it('inline uPlot from node_modules and the client scripts in load order', () => {
    const assets = pageAssets('report');
    expect(assets.scripts[0]).toContain('uPlot');
    expect(assets.scripts.slice(1)).toEqual(['dom.js', 'series.js', 'charts.js', 'report-banner.js', 'report-scenario.js', 'report-page.js'].map(readClient));
    expect(assets.css).toContain('.uplot');
    expect(pageAssets('compare').scripts.at(-1)).toBe(readClient('compare-page.js'));
  });
});

describe('renderPage', () => {
  const html = renderPage({ kind: 'report', title: 'T <b>', data: { x: '<script>' } });

  it('is one self-contained file: no external script, stylesheet or image', () => {
    expect(html).not.toMatch(/<script[^>]+src=/);
    expect(html).not.toMatch(/<link /);
    expect(html).toContain('<title>T &lt;b&gt;</title>');
  });

  it('allows exactly its inline scripts by hash and no network', () => {
    const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)![1]!.replace(/&#39;/g, "'");
    expect(csp).toContain("default-src 'none'");
    const scripts = [...html.matchAll(/<script>([^]*?)<\/script>/g)].map((m) => m[1]!);
    expect(scripts).toHaveLength(7);
    for (const source of scripts) expect(csp).toContain(`'sha256-${createHash('sha256').update(source).digest('base64')}'`);
  });

  it('embeds the data as JSON that reads back unchanged', () => {
    expect(embeddedData(html)).toEqual({ x: '<script>' });
  });
});

describe('report.html', () => {
  it('never carries target markup as markup, and redacts secrets before embedding', () => {
    const secret = 'sk_live_echoed_secret_42';
    const report = richReport({ hostile: true, secret });
    const html = reportHtml(report, new SecretRegistry([secret]));
    expect(html).not.toContain(HOSTILE);
    expect(html).not.toContain('window.__pwned = true</script>');
    expect(html).not.toContain(secret);
    const data = embeddedData(html) as { report: typeof report; headline: { title: string } };
    expect(data.report.checks[1]!.message).toContain(HOSTILE);
    expect(JSON.stringify(data.report)).toContain('[REDACTED]');
    // The banner's words come from headlineOf: the verdict with the exit code its command returned.
    expect(data.headline.title).toBe('NOT-CERTIFIED (exit 1)');
  });

  it('HtmlReporter writes report.html on run-finished only and logs its path', async () => {
    const outDir = join(mkdtempSync(join(tmpdir(), 'html-reporter-')), 'run');
    const lines: string[] = [];
    const reporter = new HtmlReporter(new SecretRegistry(), (line) => lines.push(line));
    await reporter.onEvent({ type: 'notice', level: 'info', message: 'x' });
    expect(lines).toEqual([]);
    await reporter.onEvent({ type: 'run-finished', report: richReport(), outDir });
    expect(lines).toEqual([`report.html: ${join(outDir, 'report.html')}`]);
    expect(readFileSync(join(outDir, 'report.html'), 'utf8')).toMatch(/^<!doctype html>/);
  });
});
