/**
 * vitest globalSetup: the browser tests (test/integration/report-browser*.test.ts) drive Debian's Chromium at
 * /usr/bin/chromium through playwright-core, which downloads no browser. So that `npm ci && npm test` passes on a
 * fresh machine, this installs it once before any test runs when it is missing and we are root (apt-get, as
 * .ci/run does). When it cannot, it says exactly what to install and the browser tests fail with the same words:
 * they are never skipped silently. HARNESS_NO_BROWSER_INSTALL=1 turns the install off.
 */
import { aptGet, LOCK_WAIT_MS, realDeps, type EnsureDeps } from './apt.ts';

export { LOCK_RETRY_MS, LOCK_WAIT_MS, type EnsureDeps, type RunResult } from './apt.ts';

export const CHROMIUM = '/usr/bin/chromium';
export const INSTALL_HINT = `${CHROMIUM} is missing: install Debian's chromium package (as root: apt-get update && apt-get install -y chromium); the report browser tests need it`;

/** What happened: already there, installed, or not (with the hint said). */
export function ensureChromium(deps: EnsureDeps): 'present' | 'installed' | 'missing' {
  if (deps.exists(CHROMIUM)) return 'present';
  if (!deps.isRoot || deps.env.HARNESS_NO_BROWSER_INSTALL === '1' || !deps.exists('/usr/bin/apt-get')) {
    deps.say(`[browser tests] ${INSTALL_HINT}`);
    return 'missing';
  }
  deps.say(`[browser tests] /usr/bin/chromium is missing: running apt-get update && apt-get install -y chromium (once; a minute or two, plus up to ${LOCK_WAIT_MS / 1000} s waiting if another process holds the apt lock)`);
  const deadline = deps.now() + LOCK_WAIT_MS;
  const update = aptGet(deps, ['update', '-qq'], 300_000, deadline).status;
  const install = update === 0 ? aptGet(deps, ['install', '-y', '-qq', '--no-install-recommends', 'chromium'], 600_000, deadline).status : update;
  if (install !== 0 || !deps.exists(CHROMIUM)) {
    deps.say(`[browser tests] apt-get failed (exit ${install}). ${INSTALL_HINT}`);
    return 'missing';
  }
  deps.say('[browser tests] chromium installed');
  return 'installed';
}

export default function setup(): void {
  ensureChromium(realDeps());
}
