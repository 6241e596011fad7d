/**
 * Debian's Prometheus (2.42) for the live-metrics test (test/integration/flows/prometheus-rw.test.ts): found on
 * PATH or at /usr/bin/prometheus; when missing and we are root, installed once with apt-get, waiting for the apt lock
 * as chromium.ts does for the browser tests (apt.ts). When it cannot be, `ensurePrometheus` says exactly what to install and the test fails
 * with the same words: never skipped silently. HARNESS_NO_PROMETHEUS_INSTALL=1 turns the install off.
 */
import { aptGet, LOCK_WAIT_MS, realDeps } from './apt.ts';

export const PROMETHEUS = '/usr/bin/prometheus';
export const PROMETHEUS_HINT = `${PROMETHEUS} is missing: install Debian's prometheus package (as root: apt-get update && apt-get -o DPkg::Lock::Timeout=120 install -y prometheus); the live-metrics test needs a real Prometheus`;

export function ensurePrometheus(say: (line: string) => void = (line) => process.stderr.write(`\n${line}\n`)): { path?: string; problem?: string } {
  const deps = realDeps(say);
  if (deps.exists(PROMETHEUS)) return { path: PROMETHEUS };
  if (!deps.isRoot || deps.env.HARNESS_NO_PROMETHEUS_INSTALL === '1' || !deps.exists('/usr/bin/apt-get')) {
    say(`[prometheus test] ${PROMETHEUS_HINT}`);
    return { problem: PROMETHEUS_HINT };
  }
  say(`[prometheus test] /usr/bin/prometheus is missing: running apt-get install -y prometheus (once; a minute or two, plus up to ${LOCK_WAIT_MS / 1000} s waiting if another process holds the apt lock)`);
  // The same bounded wait for another process's apt/dpkg lock as the browser tests' setup (apt.ts).
  const deadline = deps.now() + LOCK_WAIT_MS;
  const install = (): number | null => aptGet(deps, ['install', '-y', '-qq', '--no-install-recommends', 'prometheus'], 600_000, deadline, 'prometheus test').status;
  let status = install();
  if (status !== 0) status = aptGet(deps, ['update', '-qq'], 300_000, deadline, 'prometheus test').status === 0 ? install() : status;
  if (status !== 0 || !deps.exists(PROMETHEUS)) {
    const problem = `apt-get failed (exit ${status}). ${PROMETHEUS_HINT}`;
    say(`[prometheus test] ${problem}`);
    return { problem };
  }
  return { path: PROMETHEUS };
}
