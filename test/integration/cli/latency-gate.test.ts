/**
 * README "CI gate", end to end as a user would run it: two reference targets (`harness serve`, one with
 * `--inject-latency 50`), `harness run --suite smoke --scenario smoke` against each with the printed credentials
 * passed through environment variables and a config file, then `harness compare --budget`: the slower candidate
 * fails a p50 budget (exit 1, naming p50), a run compared with itself never fails (exit 0), and p95 on the smoke
 * scenario's 60 samples is "inconclusive: too few samples" (exit 0 with a warning), not a coin toss.
 */
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
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
  const result = await runCli(['run', '--target', served.banner.baseUrl as string, '--suite', 'smoke', '--scenario', 'smoke', '--out', out], {
    cwd: dir,
    env: envOf(served),
    timeoutMs: 60_000,
  });
  expect(result.stderr).toBe('');
  expect(result.code, result.stdout).toBe(0);
  expect(result.stdout).toContain('scenario smoke (constant-arrival-rate)');
  const [runId] = readdirSync(out);
  return join(out, runId!, 'report.json');
}

describe('CI latency gate: harness serve --inject-latency, harness run, harness compare --budget', () => {
  it('a build 50 ms slower exceeds p95:+10%; a run compared with itself does not', async () => {
    // One after the other, so the two measurements do not share the machine.
    const a = await run(plain, join(dir, 'A'));
    const b = await run(slow, join(dir, 'B'));

    const gate = await runCli(['compare', a, b, '--budget', 'p50:+10ms', '--out', join(dir, 'cmp')], { cwd: dir });
    expect(gate.code, gate.stdout + gate.stderr).toBe(1);
    expect(gate.stdout).toMatch(/gate: FAILED/);
    expect(gate.stdout).toMatch(/p50:\+10ms: p50 of scenario "smoke" in \S+ is [\d.]+ ms > limit [\d.]+ ms \(.*99 % intervals/);

    const same = await runCli(['compare', a, a, '--budget', 'p50:+10ms', '--out', join(dir, 'same')], { cwd: dir });
    expect(same.code, same.stdout + same.stderr).toBe(0);
    expect(same.stdout).toMatch(/gate: (PASSED|INCONCLUSIVE)/);

    const few = await runCli(['compare', a, b, '--budget', 'p95:+10%', '--out', join(dir, 'few')], { cwd: dir });
    expect(few.code, few.stdout + few.stderr).toBe(0);
    expect(few.stdout).toMatch(/gate: INCONCLUSIVE/);
    expect(few.stdout).toMatch(/p95:\+10%: inconclusive: too few samples: p95 of scenario "smoke" in \S+ needs at least 200 requests per run \(baseline 60, \S+ 60\)/);
  }, 120_000);
});
