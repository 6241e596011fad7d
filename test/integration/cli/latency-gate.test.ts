/**
 * README "CI gate, step by step", end to end as a user would run it: two reference targets (`harness serve`, one
 * with `--inject-latency 50`), `harness run --suite smoke --scenario smoke,gate` against each with the printed
 * credentials passed through environment variables and a config file, then `harness compare --budget`: the slower
 * candidate fails a p50 budget on the gate scenario (exit 1, naming p50) — unless that run measured its own load
 * generator stalling by more than the slowdown (report.json `generatorBound`), when the honest answer is
 * "inconclusive, because …" (exit 0) and the test requires that instead —, a run compared with itself never fails
 * (exit 0), and p95 on the smoke scenario's 60 samples is "inconclusive: too few samples", not a coin toss. Each run
 * exits 0, or 99 only for a speed threshold crossed in a scenario that measured its own generator stalling.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startServe, stop } from '../../helpers/cli.ts';

type Served = Awaited<ReturnType<typeof startServe>>;

const dir = mkdtempSync(join(tmpdir(), 'harness-gate-'));
const CONFIG = `# credentials come from the environment, as in CI
credentials:
  apiKey: \${HARNESS_API_KEY}
  restrictedKey: \${HARNESS_RESTRICTED_KEY}
  secondKey: \${HARNESS_SECOND_KEY}
  loadKey: \${HARNESS_LOAD_KEY}
  login:
    email: \${HARNESS_LOGIN_EMAIL}
    password: \${HARNESS_LOGIN_PASSWORD}
`;

let plain: Served;
let slow: Served;

beforeAll(async () => {
  writeFileSync(join(dir, 'harness.config.yaml'), CONFIG);
  [plain, slow] = await Promise.all([startServe(), startServe(['--inject-latency', '50'])]);
}, 30_000);

afterAll(async () => {
  await Promise.all([plain, slow].filter(Boolean).map((s) => stop(s.child)));
});

function envOf(served: Served): NodeJS.ProcessEnv {
  const keys = served.banner.credentials.apiKeys as Record<string, string>;
  const login = served.banner.credentials.login as Record<string, string>;
  return { HARNESS_API_KEY: keys.full, HARNESS_RESTRICTED_KEY: keys.restricted, HARNESS_SECOND_KEY: keys.second, HARNESS_LOAD_KEY: keys.load, HARNESS_LOGIN_EMAIL: login.email, HARNESS_LOGIN_PASSWORD: login.password };
}

/** `harness run` from the temp dir (its harness.config.yaml applies); resolves with reports/<run-id>/report.json. */
async function run(served: Served, out: string): Promise<string> {
  const result = await runCli(['run', '--target', served.banner.baseUrl as string, '--suite', 'smoke', '--scenario', 'smoke,gate', '--out', out], {
    cwd: dir,
    env: envOf(served),
    timeoutMs: 150_000,
  });
  expect(result.stderr).toBe('');
  expect(result.stdout).toContain('scenario smoke (constant-arrival-rate)');
  expect(result.stdout).toContain('scenario gate (constant-arrival-rate)');
  const [runId] = readdirSync(out);
  const file = join(out, runId!, 'report.json');
  if (result.code !== 0) {
    // The shipped smoke scenario's thresholds are claims about speed. Exit 99 is the honest answer only where a
    // speed threshold was crossed in a scenario whose run measured its own load generator stalling: then the
    // latencies include the generator's delay. Any other crossing, or any other exit code, fails the test.
    expect(result.code, result.stdout).toBe(99);
    const { scenarios } = JSON.parse(readFileSync(file, 'utf8')) as { scenarios: Array<{ name: string; generatorBound?: unknown; thresholds: Array<{ metric: string; ok: boolean }> }> };
    const crossed = scenarios.flatMap((sc) => sc.thresholds.filter((t) => !t.ok).map((t) => ({ scenario: sc.name, metric: t.metric, bound: sc.generatorBound !== undefined })));
    expect(crossed.length, result.stdout).toBeGreaterThan(0);
    for (const c of crossed) {
      expect(['http_req_duration', 'dropped_iterations'], result.stdout).toContain(c.metric.replace(/\{.*$/, ''));
      expect(c.bound, `${c.scenario}: ${c.metric} crossed in a run whose generator kept up\n${result.stdout}`).toBe(true);
    }
  }
  return file;
}

describe('CI latency gate: harness serve --inject-latency, harness run, harness compare --budget', () => {
  it('a build 50 ms slower exceeds p95:+10%; a run compared with itself does not', async () => {
    // One after the other, so the two measurements do not share the machine.
    const a = await run(plain, join(dir, 'A'));
    const b = await run(slow, join(dir, 'B'));

    const gate = await runCli(['compare', a, b, '--budget', 'p50:+10ms', '--out', join(dir, 'cmp')], { cwd: dir });
    const compared = JSON.parse(readFileSync(join(dir, 'cmp', 'compare.json'), 'utf8')) as { budgets: Array<{ scenario?: string; status: string; detail: string }> };
    const onGate = compared.budgets.find((r) => r.scenario === 'gate')!;
    const bound = [a, b].map((f) => (JSON.parse(readFileSync(f, 'utf8')) as { scenarios: Array<{ name: string; generatorBound?: { message: string } }> }).scenarios.find((x) => x.name === 'gate')?.generatorBound);
    if (onGate.status === 'exceeded' || bound.every((g) => g === undefined)) {
      expect(gate.code, gate.stdout + gate.stderr).toBe(1);
      expect(gate.stdout).toMatch(/gate: FAILED/);
      expect(gate.stdout).toMatch(/p50:\+10ms: p50 of scenario "gate" in \S+ is [\d.]+ ms > limit [\d.]+ ms \(.*99 % intervals, \d+ and \d+ samples, over blocks of/);
    } else {
      // Measured: the load generator stalled by more than the slowdown. Never a failure then; it says why.
      expect(onGate.status, bound.map((g) => g?.message).join('; ')).toBe('inconclusive');
      expect(onGate.detail).toMatch(/^p50:\+10ms: inconclusive, because the load generator stalled: /);
    }
    const same = await runCli(['compare', a, a, '--budget', 'p50:+10ms', '--out', join(dir, 'same')], { cwd: dir });
    expect(same.code, same.stdout + same.stderr).toBe(0);
    expect(same.stdout).toMatch(/gate: (PASSED|INCONCLUSIVE)/);

    const few = await runCli(['compare', a, b, '--budget', 'p95:+10%', '--out', join(dir, 'few')], { cwd: dir });
    expect(few.stdout).toMatch(/p95:\+10%: inconclusive: too few samples: p95 of scenario "smoke" in \S+ needs at least 200 requests per run \(baseline 60, \S+ 60\)/);
  }, 330_000);
});
