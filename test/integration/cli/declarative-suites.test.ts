/**
 * Declarative suites from the command line: a config's conformance.suiteFiles (relative to the config file)
 * adds the voice suite to `harness list` and `harness run --suite voice / --check`; a broken suite file stops the
 * run before any traffic with file:line problems and exit 104; `harness validate` checks suite files; and the
 * default config does not load the example suite (the reference target has no voice endpoints).
 */
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, runCli } from '../../helpers/cli.ts';
import { startVoiceTarget, type VoiceTarget } from '../../targets/voice-target.ts';

const dir = mkdtempSync(join(tmpdir(), 'harness-decl-cli-'));
let target: VoiceTarget;

function config(suiteFile: string): string {
  const file = join(dir, `config-${readdirSync(dir).length}.yaml`);
  writeFileSync(file, `target:\n  baseUrl: ${target.baseUrl}\ncredentials:\n  apiKey: \${VOICE_KEY}\nconformance:\n  suiteFiles: [${suiteFile}]\nload:\n  scenarios: []\n`);
  return file;
}

beforeAll(async () => {
  target = await startVoiceTarget();
  copyFileSync(join(REPO_ROOT, 'suites/voice.example.yaml'), join(dir, 'voice.yaml'));
  copyFileSync(join(REPO_ROOT, 'suites/voice-call.example.schema.json'), join(dir, 'voice-call.example.schema.json'));
  copyFileSync(join(REPO_ROOT, 'test/fixtures/suites/broken/misspelt-key.yaml'), join(dir, 'broken.yaml'));
});

afterAll(async () => {
  await target?.close();
});

describe('declarative suites on the command line', () => {
  it('harness list --config shows the voice suite and its checks; the default config does not load it', async () => {
    const listed = await runCli(['list', '--json', '--config', config('voice.yaml')], { env: { VOICE_KEY: target.apiKey } });
    expect(listed.code).toBe(0);
    const listing = JSON.parse(listed.stdout);
    expect(listing.suites.at(-1)).toMatchObject({ name: 'voice', checks: 5 });
    expect(listing.checks.find((c: { id: string }) => c.id === 'voice.create-requires-credential')).toMatchObject({ level: 'MUST', specRef: 'SERVICE-SPEC §5 rule 5, §7 (401)' });
    const plain = await runCli(['list', '--json']);
    expect(JSON.parse(plain.stdout).suites.map((s: { name: string }) => s.name)).not.toContain('voice');
  });

  it('harness run --suite voice passes against the voice target; --check runs one of its checks', async () => {
    const file = config('voice.yaml');
    const out = join(dir, 'reports');
    const run = await runCli(['run', '--config', file, '--suite', 'voice', '--out', out], { env: { VOICE_KEY: target.apiKey } });
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('PASS MUST    voice.create-requires-credential');
    // One suite of the catalogue (built-in + the config's voice suite): passed, never a certification.
    expect(run.stdout).toMatch(/verdict: PASSED — 5 of \d+ checks selected; not a certification \(exit 0\)/);
    expect(run.code).toBe(0);
    const one = await runCli(['run', '--config', file, '--check', 'voice.create-call', '--out', out], { env: { VOICE_KEY: target.apiKey } });
    expect(one.code).toBe(0);
    const reports = readdirSync(out).sort();
    const report = JSON.parse(readFileSync(join(out, reports.at(-1)!, 'report.json'), 'utf8'));
    expect(report.checks.map((c: { id: string }) => c.id)).toEqual(['voice.create-call']);
    expect(report.verdict).toBe('selection-passed');
    expect(report.selection).toMatchObject({ selected: 1, checks: ['voice.create-call'] });
  });

  it('a broken suite file stops harness run with file:line problems and exit 104, before any traffic', async () => {
    const result = await runCli(['run', '--config', config('broken.yaml')], { env: { VOICE_KEY: target.apiKey } });
    expect(result.code).toBe(104);
    expect(result.stderr).toMatch(/broken\.yaml:12:7: checks\[0\]\.expect\.staus: unknown key "staus" \(did you mean "status"\?\)/);
    expect(result.stdout).toBe('');
    expect(result.stderr).not.toMatch(/\n\s+at /);
    const missing = await runCli(['list', '--config', config('nowhere.yaml')], { env: { VOICE_KEY: 'unused-key' } });
    expect(missing.code).toBe(104);
    expect(missing.stderr).toMatch(/conformance\.suiteFiles\[0\]: suite file not found: .*nowhere\.yaml/);
  });

  it('harness validate accepts the example suite and names every problem of a broken one', async () => {
    const ok = await runCli(['validate', 'suites/voice.example.yaml']);
    expect(ok.stdout).toBe('suites/voice.example.yaml: valid suite file\n');
    expect(ok.code).toBe(0);
    const bad = await runCli(['validate', 'test/fixtures/suites/broken/request-errors.yaml']);
    expect(bad.code).toBe(104);
    expect(bad.stderr).toContain('error: 9 problems found:');
    expect(bad.stderr).toContain('request-errors.yaml:28:23: checks[2].expect.schema: no schema named "message-lst"');
  });
});
