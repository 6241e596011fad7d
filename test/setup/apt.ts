/**
 * apt-get for the test setups that install Debian packages on a fresh machine (chromium.ts for the browser tests,
 * prometheus.ts for the live-metrics test): the apt/dpkg lock another process holds is waited for, bounded, and
 * what was waited for is said. Synchronous (vitest globalSetup and a test's beforeAll call it before anything runs).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

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
export function aptGet(deps: EnsureDeps, args: string[], timeoutMs: number, deadline: number, label = 'browser tests'): RunResult {
  const started = deps.now();
  let held: string | undefined;
  for (;;) {
    const left = Math.max(0, Math.ceil((deadline - deps.now()) / 1000));
    const result = deps.run('apt-get', ['-o', `DPkg::Lock::Timeout=${left}`, ...args], timeoutMs + left * 1000);
    const lockLine = result.stderr.split('\n').find((l) => LOCK_HELD.test(l))?.trim();
    if (lockLine) held = lockLine;
    const waited = Math.round((deps.now() - started) / 1000);
    if (result.status === 0 || !lockLine || deps.now() >= deadline) {
      if (held && result.status === 0) deps.say(`[${label}] apt-get ${args[0]}: waited ${waited} s for the apt/dpkg lock another process held ("${held}")`);
      if (held && result.status !== 0 && lockLine) deps.say(`[${label}] apt-get ${args[0]}: gave up after ${waited} s waiting for the apt/dpkg lock another process holds ("${held}"; the setup waits at most ${LOCK_WAIT_MS / 1000} s in all)`);
      return result;
    }
    deps.sleep(Math.min(LOCK_RETRY_MS, Math.max(0, deadline - deps.now())));
  }
}

/** The real machine: spawnSync, the process's uid and environment, a blocking sleep. */
export function realDeps(say: (line: string) => void = (line) => process.stderr.write(`\n${line}\n`)): EnsureDeps {
  const sleeper = new Int32Array(new SharedArrayBuffer(4));
  return {
    exists: existsSync,
    isRoot: typeof process.getuid === 'function' && process.getuid() === 0,
    env: process.env,
    run: (command, args, timeout) => {
      const r = spawnSync(command, args, { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }, timeout });
      if (r.stderr) process.stderr.write(r.stderr);
      return { status: r.status, stderr: r.stderr ?? '' };
    },
    say,
    now: () => performance.now(),
    sleep: (ms) => void Atomics.wait(sleeper, 0, 0, ms),
  };
}
