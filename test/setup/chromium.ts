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

/** Longest the setup waits for another process's apt/dpkg lock (another install, unattended-upgrades) in all. */
export const LOCK_WAIT_MS = 300_000;
/** Between tries while the lock is held (apt-get update does not always wait for the lists lock by itself). */
export const LOCK_RETRY_MS = 5_000;
/** What apt says when another process holds a lock it needs, immediately or while waiting for it. */
const LOCK_HELD = /Could not get lock|is held by process|Unable to acquire the dpkg frontend lock|Unable to lock (the )?(administration )?directory|Waiting for cache lock/i;

export interface RunResult {
  /** Exit status; null when it could not run or timed out. */
  status: number | null;
  /** What it wrote to stderr (also passed through to ours). */
  stderr: string;
}

export interface EnsureDeps {
  exists: (path: string) => boolean;
  isRoot: boolean;
  env: NodeJS.ProcessEnv;
  run: (command: string, args: string[], timeoutMs: number) => RunResult;
  say: (line: string) => void;
  /** A monotonic clock (ms) and a blocking sleep: the setup is synchronous. */
  now: () => number;
  sleep: (ms: number) => void;
}

/**
 * apt-get with the lock waited for, bounded: `-o DPkg::Lock::Timeout` makes apt itself wait for the dpkg lock, and
 * a run that still reports a held lock (the lists lock of `apt-get update`) is tried again every LOCK_RETRY_MS
 * until LOCK_WAIT_MS have passed since the first try. Says what it waited for and how long.
 */
export function aptGet(deps: EnsureDeps, args: string[], timeoutMs: number, deadline: number): RunResult {
  const started = deps.now();
  let held: string | undefined;
  for (;;) {
    const left = Math.max(0, Math.ceil((deadline - deps.now()) / 1000));
    const result = deps.run('apt-get', ['-o', `DPkg::Lock::Timeout=${left}`, ...args], timeoutMs + left * 1000);
    const lockLine = result.stderr.split('\n').find((l) => LOCK_HELD.test(l))?.trim();
    if (lockLine) held = lockLine;
    const waited = Math.round((deps.now() - started) / 1000);
    if (result.status === 0 || !lockLine || deps.now() >= deadline) {
      if (held && result.status === 0) deps.say(`[browser tests] apt-get ${args[0]}: waited ${waited} s for the apt/dpkg lock another process held ("${held}")`);
      if (held && result.status !== 0 && lockLine) deps.say(`[browser tests] apt-get ${args[0]}: gave up after ${waited} s waiting for the apt/dpkg lock another process holds ("${held}"; the setup waits at most ${LOCK_WAIT_MS / 1000} s in all)`);
      return result;
    }
    deps.sleep(Math.min(LOCK_RETRY_MS, Math.max(0, deadline - deps.now())));
  }
}

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
  const sleeper = new Int32Array(new SharedArrayBuffer(4));
  ensureChromium({
    exists: existsSync,
    isRoot: typeof process.getuid === 'function' && process.getuid() === 0,
    env: process.env,
    run: (command, args, timeout) => {
      const r = spawnSync(command, args, { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }, timeout });
      if (r.stderr) process.stderr.write(r.stderr);
      return { status: r.status, stderr: r.stderr ?? '' };
    },
    say: (line) => process.stderr.write(`\n${line}\n`),
    now: () => performance.now(),
    sleep: (ms) => void Atomics.wait(sleeper, 0, 0, ms),
  });
}
