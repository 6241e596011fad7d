/** `npm start`'s job end to end: the embedded reference target, every suite, report.json on disk. */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.ts';

describe('harness run (embedded reference target)', () => {
  it('exits 0, prints a summary and writes reports/<run-id>/report.json with the stable fields', async () => {
    const out = mkdtempSync(join(tmpdir(), 'harness-run-'));
    const result = await runCli(['run', '--out', out], { timeoutMs: 120_000 });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/verdict: CERTIFIED — \d+ passed, 0 failed/);
    const [runId] = readdirSync(out);
    expect(runId).toMatch(/^\d{8}T\d{6}Z-[0-9a-f]{6}$/);
    const file = join(out, runId!, 'report.json');
    expect(result.stdout).toContain(`report.json: ${file}`);
    const report = JSON.parse(readFileSync(file, 'utf8'));
    expect(report.schemaVersion).toBe(1);
    expect(report.run).toMatchObject({ id: runId, harnessVersion: expect.any(String), target: { baseUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/), embedded: true } });
    expect(Date.parse(report.run.finishedAt)).toBeGreaterThanOrEqual(Date.parse(report.run.startedAt));
    expect(report.verdict).toBe('certified');
    expect(report.checks.length).toBeGreaterThan(0);
    for (const check of report.checks) {
      expect(check).toMatchObject({ id: expect.any(String), suite: expect.any(String), title: expect.any(String), level: expect.stringMatching(/^(MUST|SHOULD|PROFILE)$/), specRef: expect.any(String), status: 'passed', durationMs: expect.any(Number) });
    }
    expect(report.summary).toMatchObject({ passed: report.checks.length, failed: 0, skipped: 0, errors: 0, byLevel: { MUST: expect.any(Object), SHOULD: expect.any(Object), PROFILE: expect.any(Object) } });
  });

  it('an unreachable target: exit 3, and a report is still written', async () => {
    const out = mkdtempSync(join(tmpdir(), 'harness-run-'));
    const result = await runCli(['run', '--target', 'http://127.0.0.1:9', '--out', out]);
    expect(result.code).toBe(3);
    expect(result.stdout).toContain('run aborted: target http://127.0.0.1:9 is unreachable');
    const [runId] = readdirSync(out);
    const report = JSON.parse(readFileSync(join(out, runId!, 'report.json'), 'utf8'));
    expect(report.run.aborted.code).toBe('HARNESS_ERR_TARGET_UNREACHABLE');
    expect(report.verdict).toBe('not-certified');
  });
});
