/** `harness list` and `harness run --check`: what a run can select, and running single checks by id. */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDefaultRegistry } from '../../../suites/index.ts';
import { runCli } from '../../helpers/cli.ts';

describe('harness list', () => {
  it('--json lists every registered suite and check (id, level, specRef) and the shipped scenarios', async () => {
    const result = await runCli(['list', '--json']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const listing = JSON.parse(result.stdout);
    const registry = createDefaultRegistry();
    expect(listing.suites.map((s: { name: string }) => s.name)).toEqual(registry.suites.map((s) => s.name));
    expect(listing.checks.map((c: { id: string }) => c.id)).toEqual(registry.checkIds);
    for (const check of listing.checks) expect(check).toEqual({ id: expect.any(String), suite: expect.any(String), level: expect.stringMatching(/^(MUST|SHOULD|PROFILE)$/), specRef: expect.any(String), title: expect.any(String) });
    expect(listing.scenarios.map((s: { name: string }) => s.name)).toEqual(expect.arrayContaining(['smoke', 'baseline', 'stress']));
    expect(listing.scenarios.find((s: { name: string }) => s.name === 'smoke')).toMatchObject({ executor: 'constant-arrival-rate', description: expect.any(String) });
  });

  it('prints tables of suites, checks and scenarios', async () => {
    const result = await runCli(['list']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^suites \(\d+\):\n  smoke /);
    expect(result.stdout).toMatch(/\n  smoke\.send-text-message +MUST +SERVICE-SPEC §4/);
    expect(result.stdout).toMatch(/\nscenarios \(\d+, shipped\):\n/);
  });
});

describe('harness run --check', () => {
  it('runs only the named checks (repeatable and comma-separated)', async () => {
    const out = mkdtempSync(join(tmpdir(), 'harness-check-'));
    const result = await runCli(['run', '--no-load', '--out', out, '--check', 'smoke.send-text-message', '--check', 'auth.api-key.unknown-key,errors.request-id.present'], { timeoutMs: 60_000 });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const [runId] = readdirSync(out);
    const report = JSON.parse(readFileSync(join(out, runId!, 'report.json'), 'utf8'));
    expect(report.checks.map((c: { id: string }) => c.id).sort()).toEqual(['auth.api-key.unknown-key', 'errors.request-id.present', 'smoke.send-text-message']);
  });

  it('an unknown id is a usage error (exit 2) naming it with the nearest id, before any traffic', async () => {
    const result = await runCli(['run', '--no-load', '--check', 'smoke.send-text-mesage']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('unknown check id "smoke.send-text-mesage" (did you mean "smoke.send-text-message"?)');
    expect(result.stdout).toBe('');
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});
