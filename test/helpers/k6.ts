/**
 * The real k6 for tests: `HARNESS_K6` (a path to the binary), else the repository's sibling
 * `../shared/tools/k6/k6-path.sh` (resolved from the repository root, so a worktree and CI find the same one).
 * Where neither exists, `k6Missing` says so and the k6 tests FAIL with that sentence — they never pass silently.
 * Set HARNESS_K6=skip to skip them on purpose (each suite then prints why it skipped).
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { REPO_ROOT } from './cli.ts';

export interface K6Binary {
  path?: string;
  /** Why there is none (or 'skip' when HARNESS_K6=skip). */
  missing?: string;
  version?: string;
}

function locate(): K6Binary {
  const fromEnv = process.env.HARNESS_K6;
  if (fromEnv === 'skip') return { missing: 'skip' };
  if (fromEnv) {
    return existsSync(fromEnv) ? { path: fromEnv } : { missing: `HARNESS_K6=${fromEnv} does not exist` };
  }
  const script = resolve(REPO_ROOT, '..', 'shared', 'tools', 'k6', 'k6-path.sh');
  if (!existsSync(script)) return { missing: `no k6: HARNESS_K6 is unset and ${script} does not exist (set HARNESS_K6 to a k6 >= 0.48 binary, or HARNESS_K6=skip to skip the k6 tests on purpose)` };
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

/** Throws the reason there is no k6 (the test then fails with it), unless skipping was asked for. */
export function requireK6(): string {
  if (k6.path) return k6.path;
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

