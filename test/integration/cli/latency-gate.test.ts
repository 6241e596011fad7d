/**
 * README "CI gate", end to end as a user would run it: two reference targets (`harness serve`, one with
 * `--inject-latency 50`), `harness run --suite smoke --scenario smoke` against each with the printed credentials
 * passed through environment variables and a config file, then `harness compare --budget 'p95:+10%'`: the slower
 * candidate fails the gate (exit 1, naming p95), a run compared with itself passes (exit 0).
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
  return { HARNESS_API_KEY: keys.full, HARNESS_RESTRICTED_KEY: keys.restricted, HARNESS_SECOND_KEY: keys.second, HARNESS_LOAD_KEY: keys.load };
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

    const gate = await runCli(['compare', a, b, '--budget', 'p95:+10%', '--out', join(dir, 'cmp')], { cwd: dir });
    expect(gate.code, gate.stdout + gate.stderr).toBe(1);
    expect(gate.stdout).toMatch(/gate: FAILED/);
    expect(gate.stdout).toMatch(/p95:\+10%: p95 of scenario "smoke" in \S+ is [\d.]+ ms > limit [\d.]+ ms/);

    const same = await runCli(['compare', a, a, '--budget', 'p95:+10%', '--out', join(dir, 'same')], { cwd: dir });
    expect(same.code, same.stdout + same.stderr).toBe(0);
    expect(same.stdout).toMatch(/gate: PASSED/);
  }, 120_000);
});
