import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { richReport } from '../../fixtures/reports/rich-report.ts';
import { runCli } from '../../helpers/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'compare-cli-'));
const A = join(dir, 'a.json');
const B = join(dir, 'b.json');
writeFileSync(A, JSON.stringify(richReport({ runId: 'A' })));
writeFileSync(B, JSON.stringify(richReport({ runId: 'B', latencyFactor: 1.2, rpsFactor: 0.9 })));

describe('harness compare', () => {
  it('prints the comparison and writes compare.json, compare.html and the Markdown summary', async () => {
    const out = join(dir, 'out');
    const md = join(dir, 'summary.md');
    writeFileSync(md, '# earlier step\n');
    const result = await runCli(['compare', A, B, '--out', out, '--summary-md', md]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('compare: 2 runs, baseline A');
    expect(result.stdout).toContain(`compare.json: ${join(out, 'compare.json')}`);
    expect(result.stdout).toContain(`compare.html: ${join(out, 'compare.html')}`);
    expect(JSON.parse(readFileSync(join(out, 'compare.json'), 'utf8'))).toMatchObject({ gate: 'none', runs: [{ label: 'A' }, { label: 'B' }] });
    expect(readFileSync(join(out, 'compare.html'), 'utf8')).toMatch(/^<!doctype html>/);
    expect(readFileSync(md, 'utf8')).toMatch(/^# earlier step\n\n## Harness compare/);
  });

  it('exits 1 naming each exceeded budget, 0 when every budget holds', async () => {
    const failed = await runCli(['compare', A, B, '--out', join(dir, 'gate'), '--budget', 'p95:+10%,rps:-5%,failed:5']);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toContain('gate: FAILED — 4 budgets exceeded:');
    expect(failed.stdout).toContain('p95:+10%: p95 of scenario "send-steady" in B is 12 ms > limit 11 ms (baseline 10 ms)');
    expect(failed.stdout).toContain('rps:-5%: rps of scenario "send-steady" in B is 450 req/s < limit 475 req/s');
    const passed = await runCli(['compare', A, B, '--out', join(dir, 'gate2'), '--budget', 'p95:+25%,rps:-15%', '--baseline', 'A']);
    expect(passed.code).toBe(0);
    expect(passed.stdout).toContain('gate: PASSED');
  });

  it('a bad budget, a missing file or too few reports is a usage error (exit 2) without a stack trace', async () => {
    const bad = await runCli(['compare', A, B, '--budget', 'p95:fast']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--budget: "p95:fast"');
    const missing = await runCli(['compare', A, join(dir, 'missing.json')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(`error: ${join(dir, 'missing.json')}: report file not found\n`);
    const one = await runCli(['compare', A]);
    expect(one.code).toBe(2);
    expect(one.stderr).toContain('compare needs at least two reports');
    for (const r of [bad, missing, one]) expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('an invalid report exits 104 listing its problems', async () => {
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, JSON.stringify({ ...richReport(), verdict: 'maybe' }));
    const result = await runCli(['compare', A, broken]);
    expect(result.code).toBe(104);
    expect(result.stderr).toContain(`${broken}: not a valid report.json:\n  /verdict: must be equal to one of the allowed values`);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});
