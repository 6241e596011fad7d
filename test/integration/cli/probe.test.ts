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
    // A quota of 40 per second: the probe must outpace it to see the limit, and 300 req/s is more than a loaded
    // 2-core machine gives a probe beside its own embedded target (it then reached 77 req/s against 100).
    const config = join(mkdtempSync(join(tmpdir(), 'probe-cli-config-')), 'harness.config.yaml');
    writeFileSync(config, 'reference:\n  rateLimit:\n    quota: 40\n    windowSeconds: 1\n');
    const result = await runCli(['probe', 'ratelimit', '--config', config, '--out', out, '--max-rps', '300', '--budget-seconds', '8']);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toMatch(/claimed: {4}40 per 1 s/);
    expect(result.stdout).toMatch(/observed: {3}fixed-window: 40 per/);
    expect(result.stdout).toMatch(/quota matches/);
    const [runId] = readdirSync(out);
    const report = JSON.parse(readFileSync(join(out, runId!, 'report.json'), 'utf8'));
    expect(reportIssues(report)).toEqual([]);
    expect(report.checks).toEqual([]);
    expect(report.verdict).toBe('not-evaluated');
    // The same files as every command: report.html renders the probe's section.
    expect(readFileSync(join(out, runId!, 'report.html'), 'utf8')).toContain('<!doctype html>');
    expect(readdirSync(join(out, runId!)).sort()).toEqual(['junit.xml', 'report.html', 'report.json']);
    expect(report.rateLimit).toMatchObject({ headerStyle: 'ietf', policyClaimed: { quota: 40, windowS: 1 }, observed: { algorithm: 'fixed-window', quota: 40 } });
  }, 60_000);

  it('an unknown credential name is a usage error', async () => {
    const result = await runCli(['probe', 'ratelimit', '--credential', 'nope']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--credential: expected one of/);
  });
});
