/** `harness probe ratelimit` against the embedded reference target: verdict on stdout, report.json written. */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reportIssues } from '../../../src/report/report-schema.ts';
import { runCli } from '../../helpers/cli.ts';

describe('harness probe ratelimit', () => {
  it('prints claimed vs observed and writes report.json with the rateLimit section and no checks', async () => {
    const out = mkdtempSync(join(tmpdir(), 'probe-cli-'));
    // A quota of 20 per 2 s: the probe must outpace it to see the limit (a loaded 2-core machine gave a probe
    // beside its own embedded target 77 req/s), and a counting run must end well inside one window to show its
    // shape (on such a machine a run of 40 admissions took 635 ms).
    const config = join(mkdtempSync(join(tmpdir(), 'probe-cli-config-')), 'harness.config.yaml');
    writeFileSync(config, 'reference:\n  rateLimit:\n    quota: 20\n    windowSeconds: 2\n');
    const result = await runCli(['probe', 'ratelimit', '--config', config, '--out', out, '--max-rps', '300', '--budget-seconds', '12']);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toMatch(/claimed: {4}20 per 2 s/);
    expect(result.stdout).toMatch(/observed: {3}fixed-window: 20 per/);
    // The claim is judged on the interval the measurement allows: it matches, or a run stretched by a loaded
    // machine may have spanned two windows and the probe says it could not decide — never that the claim differs.
    const match = /match: {6}(.*)/.exec(result.stdout)?.[1] ?? '';
    expect(match).toMatch(/^quota( matches|: could not decide) \(claimed 20[,;]/);
    expect(match).not.toMatch(/DIFFERS/);
    const [runId] = readdirSync(out);
    const report = JSON.parse(readFileSync(join(out, runId!, 'report.json'), 'utf8'));
    expect(reportIssues(report)).toEqual([]);
    expect(report.checks).toEqual([]);
    expect(report.verdict).toBe('not-evaluated');
    // The same files as every command: report.html renders the probe's section.
    expect(readFileSync(join(out, runId!, 'report.html'), 'utf8')).toContain('<!doctype html>');
    expect(readdirSync(join(out, runId!)).sort()).toEqual(['junit.xml', 'report.html', 'report.json']);
    expect(report.rateLimit).toMatchObject({ headerStyle: 'ietf', policyClaimed: { quota: 20, windowS: 2 }, observed: { algorithm: 'fixed-window', quota: 20 } });
    expect(report.rateLimit.policyMatch.quota).toMatchObject({ outcome: expect.stringMatching(/^(matches|undecidable)$/), claimed: 20 });
  }, 60_000);

  it('an unknown credential name is a usage error', async () => {
    const result = await runCli(['probe', 'ratelimit', '--credential', 'nope']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--credential: expected one of/);
  });
});
