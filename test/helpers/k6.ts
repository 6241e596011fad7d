/**
 * The real k6 for tests: `HARNESS_K6` (a path to the binary), else the repository's sibling
 * `../shared/tools/k6/k6-path.sh` (resolved from the repository root, so a worktree and CI find the same one).
 * No package registry ships k6, so where neither exists (a fresh clone) the k6 tests are SKIPPED, loudly: each says
 * why on stderr, carries the reason in its result (`meta.skipReason`, in test-output/vitest-results.json) and the
 * closing `tests: … skipped (no k6: set HARNESS_K6)` line names it (test/setup/summary-line.mjs). They FAIL instead
 * when k6 is required (`HARNESS_REQUIRE_K6=1`, as .ci/run sets), when HARNESS_K6 names a missing file, or when the
 * script is there and fails. HARNESS_K6=skip skips them on purpose.
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { TestContext } from 'vitest';
import { REPO_ROOT } from './cli.ts';

/** The reason a k6 test was skipped, as the closing summary line names it. */
export const NO_K6 = 'no k6: set HARNESS_K6';

declare module 'vitest' {
  interface TaskMeta {
    /** Why the test was skipped (a tool nobody can install from a registry): named by the closing summary line. */
    skipReason?: string;
  }
}

export interface K6Binary {
  path?: string;
  /** Why there is none (or 'skip' when HARNESS_K6=skip). */
  missing?: string;
  /** Nothing names a k6 and none is required: the k6 tests skip (loudly) instead of failing. */
  absent?: boolean;
  version?: string;
}

function locate(): K6Binary {
  const fromEnv = process.env.HARNESS_K6;
  if (fromEnv === 'skip') return { missing: 'skip' };
  if (fromEnv) {
    return existsSync(fromEnv) ? { path: fromEnv } : { missing: `HARNESS_K6=${fromEnv} does not exist` };
  }
  const script = resolve(REPO_ROOT, '..', 'shared', 'tools', 'k6', 'k6-path.sh');
  if (!existsSync(script)) {
    const missing = `no k6: HARNESS_K6 is unset and ${script} does not exist (set HARNESS_K6 to a k6 >= 0.48 binary)`;
    return process.env.HARNESS_REQUIRE_K6 === '1' ? { missing } : { missing, absent: true };
  }
  try {
    const path = execFileSync('sh', [script], { encoding: 'utf8', timeout: 120_000 }).trim();
    return existsSync(path) ? { path } : { missing: `${script} printed ${path}, which does not exist` };
  } catch (err) {
    return { missing: `${script} failed: ${(err as Error).message}` };
  }
}

export const k6: K6Binary = locate();
if (k6.path) {
  try {
    k6.version = execFileSync(k6.path, ['version'], { encoding: 'utf8', timeout: 30_000 }).trim();
  } catch (err) {
    k6.missing = `${k6.path} version failed: ${(err as Error).message}`;
    delete k6.path;
  }
}
if (k6.missing === 'skip') console.warn('k6 tests SKIPPED on purpose: HARNESS_K6=skip');

/**
 * The k6 binary for this test. No k6 anywhere (and none required): the test is skipped, saying so on stderr and in
 * its result; any other reason there is none fails the test with that reason.
 */
export function requireK6(ctx?: TestContext): string {
  if (k6.path) return k6.path;
  if (k6.absent && ctx) {
    console.warn(`k6 test SKIPPED (${NO_K6}): ${k6.missing}`);
    ctx.task.meta.skipReason = NO_K6;
    ctx.skip(NO_K6);
  }
  throw new Error(k6.missing ?? 'no k6');
}

export interface K6Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `k6 run ARGS` with env; resolves with the exit code (99: thresholds crossed) instead of rejecting. */
export function runK6(args: string[], env: Record<string, string>, timeoutMs = 90_000): Promise<K6Run> {
  const bin = requireK6();
  return new Promise((resolvePromise) => {
    execFile(bin, ['run', ...args], { env: { ...process.env, ...env, K6_NO_USAGE_REPORT: 'true' }, timeout: timeoutMs, maxBuffer: 64 << 20 }, (err, stdout, stderr) => {
      const code = err ? ((err as { code?: number | string }).code ?? null) : 0;
      resolvePromise({ code: typeof code === 'number' ? code : null, stdout, stderr });
    });
  });
}

/** The flags k6-operator gives runner `index` (1-based) of `total` (its pkg/segmentation). */
export function segmentFlags(index: number, total: number): string[] {
  const point = (i: number): string => (i === 0 ? '0' : i === total ? '1' : `${i}/${total}`);
  const sequence = Array.from({ length: total + 1 }, (_, i) => point(i)).join(',');
  return total > 1 ? [`--execution-segment=${point(index - 1)}:${point(index)}`, `--execution-segment-sequence=${sequence}`] : [];
}

