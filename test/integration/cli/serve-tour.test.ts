/**
 * README "A five-minute tour", as a tester follows it: `harness serve` in a child process, every `export HARNESS_…` line
 * it prints taken into the environment (what `eval "$(grep '^export HARNESS_' serve.out)"` does), then
 * `harness run --target <its URL> --config harness.config.yaml` (the shipped config, from a copy in a fresh folder).
 * The run must end CERTIFIED: the JWT checks that need an expired or not-yet-valid token mint them with the test-only
 * key `serve` prints (HARNESS_JWT_KEY → credentials.jwtSigning), so no MUST check is left unrun.
 *
 * The shipped config runs the smoke scenario after the suites; its latency and dropped-iteration thresholds are
 * claims about speed, which a loaded machine crosses honestly (the reference target answers slower when it gets
 * no CPU) and which tests do not assert. So the tour folder holds scenarios/smoke.yaml — found before the shipped
 * one — with the shipped scenario's load unchanged and only its thresholds that speed cannot cross: the command,
 * the config and the load are the README's, and the exit code still depends on every threshold the run judged.
 */
import { copyFileSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOT_PRINTED } from '../../../src/target/banner.ts';
import { REPO_ROOT, runCli, startServe, stop } from '../../helpers/cli.ts';
import { SPEED_FREE_THRESHOLDS, writeSpeedFreeSmoke } from '../../helpers/speed-free-scenario.ts';

let served: Awaited<ReturnType<typeof startServe>>;
const dir = mkdtempSync(join(tmpdir(), 'harness-tour-'));

beforeAll(async () => {
  copyFileSync(join(REPO_ROOT, 'harness.config.yaml'), join(dir, 'harness.config.yaml'));
  writeSpeedFreeSmoke(dir);
  served = await startServe();
}, 120_000);

afterAll(async () => {
  if (served) await stop(served.child);
});

/** The `export NAME='value'` lines of serve's output, as a POSIX shell's eval would read them. */
async function exported(): Promise<Record<string, string>> {
  // The export lines follow the table, the reasons for the rest follow them: wait (bounded) until the last arrived.
  for (let i = 0; i < 100 && !/^# not printed: HARNESS_REFERENCE_.*$/m.test(served.output()); i++) await new Promise((r) => setTimeout(r, 100));
  const vars: Record<string, string> = {};
  for (const m of served.output().matchAll(/^export (HARNESS_[A-Z0-9_]+)='((?:[^']|'\\'')*)'$/gm)) vars[m[1]!] = m[2]!.replace(/'\\''/g, "'");
  return vars;
}

describe('README tour: harness serve, its variables exported, harness run', () => {
  it('serve prints every variable harness.config.yaml reads, a test-only JWT signing key among them', async () => {
    const vars = await exported();
    const config = readFileSync(join(dir, 'harness.config.yaml'), 'utf8');
    // Every variable the file reads is printed, but those serve says it does not print, and why (banner.ts).
    const notPrinted = new Set(NOT_PRINTED.flatMap((g) => g.names));
    const wanted = [...new Set([...config.matchAll(/\$\{(HARNESS_[A-Z0-9_]+)/g)].map((m) => m[1]!))].filter((n) => !notPrinted.has(n));
    expect(Object.keys(vars).sort()).toEqual(wanted.sort());
    for (const name of notPrinted) expect(served.output()).toMatch(new RegExp(`^# not printed: .*\\b${name}\\b.*: `, 'm'));
    expect(vars.HARNESS_API_KEY).toBe(served.banner.credentials.apiKeys.full);
    expect(vars.HARNESS_JWT_KEY).toBe(served.banner.credentials.jwtSigning.key);
    expect(served.banner.credentials.jwtSigning.alg).toBe('HS256');
  });

  it('ends CERTIFIED (exit 0), the minted-token JWT checks run and pass, and the signing key is in no report', async () => {
    const vars = await exported();
    // Only what serve printed: no HARNESS_* of the test runner's own environment.
    const env: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('HARNESS_')));
    const out = join(dir, 'reports');
    const result = await runCli(['run', '--target', served.banner.baseUrl as string, '--config', 'harness.config.yaml', '--out', out], {
      cwd: dir,
      env: { ...env, ...vars },
      timeoutMs: 300_000,
    });
    // On a loaded machine a SHOULD/PROFILE time judgement may say "could not decide" (a warning, never a failure), as
    // in cli/run.test.ts: the one difference load may make.
    expect(result.stdout, result.stderr).toMatch(/^verdict: CERTIFIED(-WITH-WARNINGS)? \(exit 0\) — MUST \d+ passed; SHOULD \d+ passed(, \d+ could not decide)?; PROFILE \d+ passed(, \d+ could not decide)?$/m);
    expect(result.stdout).not.toMatch(/MUST \d+ passed, \d+ not run/);
    expect(result.code).toBe(0);
    const [runId] = readdirSync(out);
    const reportText = readFileSync(join(out, runId!, 'report.json'), 'utf8');
    const report = JSON.parse(reportText) as {
      verdict: string;
      summary: { undecided: number };
      checks: Array<{ id: string; status: string }>;
      scenarios?: Array<{ name: string; requests: number; thresholds: Array<{ metric: string; ok: boolean }> }>;
    };
    expect(report.verdict).toBe(report.summary.undecided > 0 ? 'certified-with-warnings' : 'certified');
    // The smoke scenario ran after the suites, from the tour folder's file: its thresholds judged, every one held.
    const smoke = report.scenarios?.find((sc) => sc.name === 'smoke');
    expect(smoke?.requests).toBeGreaterThan(0);
    expect(smoke?.thresholds.map((t) => t.metric)).toEqual(SPEED_FREE_THRESHOLDS);
    expect(smoke?.thresholds.every((t) => t.ok)).toBe(true);
    for (const id of ['auth.jwt.expired-rejected', 'auth.jwt.not-yet-valid-rejected']) expect(report.checks.find((c) => c.id === id)?.status, id).toBe('passed');
    for (const file of ['report.json', 'report.html', 'junit.xml']) expect(readFileSync(join(out, runId!, file), 'utf8')).not.toContain(vars.HARNESS_JWT_KEY);
  }, 330_000);
});
