/**
 * vitest globalSetup: the browser tests (test/integration/report-browser*.test.ts) drive Debian's Chromium at
 * /usr/bin/chromium through playwright-core, which downloads no browser. So that `npm ci && npm test` passes on a
 * fresh machine, this installs it once before any test runs when it is missing and we are root (apt-get, as
 * .ci/run does). When it cannot, it says exactly what to install and the browser tests fail with the same words:
 * they are never skipped silently. HARNESS_NO_BROWSER_INSTALL=1 turns the install off.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const CHROMIUM = '/usr/bin/chromium';
export const INSTALL_HINT = `${CHROMIUM} is missing: install Debian's chromium package (as root: apt-get update && apt-get install -y chromium); the report browser tests need it`;

export default function setup(): void {
  if (existsSync(CHROMIUM)) return;
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!root || process.env.HARNESS_NO_BROWSER_INSTALL === '1' || !existsSync('/usr/bin/apt-get')) {
    process.stderr.write(`\n[browser tests] ${INSTALL_HINT}\n\n`);
    return;
  }
  process.stderr.write('\n[browser tests] /usr/bin/chromium is missing: running apt-get update && apt-get install -y chromium (once; a minute or two)\n');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const update = spawnSync('apt-get', ['update', '-qq'], { stdio: ['ignore', 'ignore', 'inherit'], env, timeout: 300_000 });
  const install = update.status === 0
    ? spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'chromium'], { stdio: ['ignore', 'ignore', 'inherit'], env, timeout: 600_000 })
    : update;
  if (install.status !== 0 || !existsSync(CHROMIUM)) process.stderr.write(`[browser tests] apt-get failed (exit ${install.status ?? install.signal}). ${INSTALL_HINT}\n\n`);
  else process.stderr.write('[browser tests] chromium installed\n\n');
}
