/** `harness import k6` end to end: a k6 summary becomes a report.json that `harness compare` accepts. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reportIssues } from '../../../src/report/report-schema.ts';
import { richReport } from '../../fixtures/reports/rich-report.ts';
import { REPO_ROOT, runCli } from '../../helpers/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'import-k6-'));
const fixture = (name: string) => join(REPO_ROOT, 'test/fixtures/k6', name);

describe('harness import k6', () => {
  it('writes a valid report.json from --summary-export and from handleSummary data; compare puts them beside a harness run', async () => {
    const harness = join(dir, 'harness.json');
    writeFileSync(harness, JSON.stringify(richReport({ runId: 'A' })));
    const outs: string[] = [];
    for (const name of ['summary-export.json', 'handle-summary.json']) {
      const out = join(dir, name.replace('.json', ''), 'report.json');
      const result = await runCli(['import', 'k6', fixture(name), '--out', out, '--name', 'send-steady']);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(`report.json: ${out}`);
      const report = JSON.parse(readFileSync(out, 'utf8'));
      expect(reportIssues(report)).toEqual([]);
      expect(report.verdict).toBe('not-evaluated');
      expect(report.run.imported).toMatchObject({ tool: 'k6', file: fixture(name) });
      outs.push(out);
    }
    const compare = await runCli(['compare', harness, ...outs, '--out', join(dir, 'cmp'), '--budget', 'p95:+300%,p99:+400%']);
    expect(compare.stderr).toBe('');
    expect(compare.stdout).toMatch(/Scenario send-steady \(k6 summaries: n\/a where k6 gave no such number\)/);
    expect(compare.stdout).toMatch(/p99 +16 ms +n\/a +77\.4 ms/);
    expect(compare.stdout).toContain('p99 of scenario "send-steady" was not measured in');
    expect(compare.code).toBe(0);
  });

  it('a file that is not a k6 summary exits 104 naming the file and why; a missing file exits 2', async () => {
    const notK6 = join(dir, 'not-k6.json');
    writeFileSync(notK6, JSON.stringify(richReport()));
    const bad = await runCli(['import', 'k6', notK6, '--out', join(dir, 'x.json')]);
    expect(bad.code).toBe(104);
    expect(bad.stderr).toContain(`${notK6}: metrics: not a k6 summary`);
    const missing = await runCli(['import', 'k6', join(dir, 'missing.json')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('k6 summary or results file not found');
    for (const r of [bad, missing]) expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
