/**
 * Debian's Prometheus (2.42) for the live-metrics test (test/integration/flows/prometheus-rw.test.ts): found on
 * PATH or at /usr/bin/prometheus; when missing and we are root, installed once with apt-get (as chromium.ts does
 * for the browser tests). When it cannot be, `ensurePrometheus` says exactly what to install and the test fails
 * with the same words: never skipped silently. HARNESS_NO_PROMETHEUS_INSTALL=1 turns the install off.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const PROMETHEUS = '/usr/bin/prometheus';
export const PROMETHEUS_HINT = `${PROMETHEUS} is missing: install Debian's prometheus package (as root: apt-get update && apt-get -o DPkg::Lock::Timeout=120 install -y prometheus); the live-metrics test needs a real Prometheus`;

export function ensurePrometheus(say: (line: string) => void = (line) => process.stderr.write(`\n${line}\n`)): { path?: string; problem?: string } {
  if (existsSync(PROMETHEUS)) return { path: PROMETHEUS };
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot || process.env.HARNESS_NO_PROMETHEUS_INSTALL === '1' || !existsSync('/usr/bin/apt-get')) {
    say(`[prometheus test] ${PROMETHEUS_HINT}`);
    return { problem: PROMETHEUS_HINT };
  }
  say('[prometheus test] /usr/bin/prometheus is missing: running apt-get install -y prometheus (once; a minute or two)');
  const run = (args: string[]): number | null =>
    spawnSync('apt-get', ['-o', 'DPkg::Lock::Timeout=120', ...args], { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }, timeout: 600_000 }).status;
  let status = run(['install', '-y', '-qq', '--no-install-recommends', 'prometheus']);
  if (status !== 0) status = run(['update', '-qq']) === 0 ? run(['install', '-y', '-qq', '--no-install-recommends', 'prometheus']) : status;
  if (status !== 0 || !existsSync(PROMETHEUS)) {
    const problem = `apt-get failed (exit ${status}). ${PROMETHEUS_HINT}`;
    say(`[prometheus test] ${problem}`);
    return { problem };
  }
  return { path: PROMETHEUS };
}
