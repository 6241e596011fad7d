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

export interface EnsureDeps {
  exists: (path: string) => boolean;
  isRoot: boolean;
  env: NodeJS.ProcessEnv;
  /** Runs a command; resolves its exit status (null when it could not run or timed out). */
  run: (command: string, args: string[], timeoutMs: number) => number | null;
  say: (line: string) => void;
}

/** What happened: already there, installed, or not (with the hint said). */
export function ensureChromium(deps: EnsureDeps): 'present' | 'installed' | 'missing' {
  if (deps.exists(CHROMIUM)) return 'present';
  if (!deps.isRoot || deps.env.HARNESS_NO_BROWSER_INSTALL === '1' || !deps.exists('/usr/bin/apt-get')) {
    deps.say(`[browser tests] ${INSTALL_HINT}`);
    return 'missing';
  }
  deps.say('[browser tests] /usr/bin/chromium is missing: running apt-get update && apt-get install -y chromium (once; a minute or two)');
  const update = deps.run('apt-get', ['update', '-qq'], 300_000);
  const install = update === 0 ? deps.run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'chromium'], 600_000) : update;
  if (install !== 0 || !deps.exists(CHROMIUM)) {
    deps.say(`[browser tests] apt-get failed (exit ${install}). ${INSTALL_HINT}`);
    return 'missing';
  }
  deps.say('[browser tests] chromium installed');
  return 'installed';
}

export default function setup(): void {
  ensureChromium({
    exists: existsSync,
    isRoot: typeof process.getuid === 'function' && process.getuid() === 0,
    env: process.env,
    run: (command, args, timeout) =>
      spawnSync(command, args, { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }, timeout }).status,
    say: (line) => process.stderr.write(`\n${line}\n`),
  });
}
