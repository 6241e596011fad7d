/**
 * Same target, same verdict — on a quiet machine or a loaded one (issue 19). Each target is run twice with the
 * time-dependent suites (ratelimit, webhooks, auth): once as the machine is, once while this test keeps every core
 * busy with child processes of its own (bounded in time, killed by PID). Every check's status must be the same in
 * both runs, except that either run may say "could not decide" (status undecided) — and then with its measured
 * reason. Load is not a property of the target: it may make a judgement unknowable, never change it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import type { CredentialsConfig } from '../../../src/config/types.ts';
import type { CheckResult } from '../../../src/conformance/result.ts';
import { credentialsFromReference } from '../../../src/job/open-target.ts';
import type { JobOutcome } from '../../../src/job/run-job.ts';
import { startReferenceTarget } from '../../../src/target/index.ts';
import { runHarness } from '../../helpers/run-harness.ts';
import type { FaultCase } from '../../targets/fault-case.ts';
import { startFaultyTarget } from '../../targets/faulty-proxy.ts';
import { RATELIMIT_FAULTS } from '../../targets/faults/ratelimit.ts';

/** The longest a hog may live, whatever happens to this test (each loops only until then). */
const HOG_BOUND_MS = 240_000;
const hogs = new Set<ChildProcess>();

/** One busy-looping child process per core: it ends by itself after `boundMs`, or when stop() kills it by PID. */
function startCpuHog(boundMs: number): { pids: number[]; stop: () => void } {
  const children = Array.from({ length: availableParallelism() }, () => {
    const child = spawn(process.execPath, ['-e', `const end = Date.now() + ${boundMs}; while (Date.now() < end) {}`], { stdio: 'ignore' });
    hogs.add(child);
    child.once('exit', () => hogs.delete(child));
    return child;
  });
  return {
    pids: children.map((c) => c.pid!).filter((pid) => pid !== undefined),
    stop: () => children.forEach(killHog),
  };
}

function killHog(child: ChildProcess): void {
  if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
    try {
      process.kill(child.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  hogs.delete(child);
}

afterAll(() => {
  // A test that failed or timed out between start and stop still leaves no busy loop behind.
  for (const child of [...hogs]) killHog(child);
});

interface Target {
  baseUrl: string;
  credentials: CredentialsConfig;
  close(): Promise<void>;
}

interface Case {
  name: string;
  suites: string[];
  start(): Promise<Target>;
  config?: Record<string, unknown>;
}

const overstatedWindow = RATELIMIT_FAULTS.find((c) => c.name.startsWith('RateLimit-Policy overstates the window')) as FaultCase;

const CASES: Case[] = [
  {
    name: 'the embedded reference target',
    suites: ['ratelimit', 'webhooks', 'auth'],
    async start() {
      const target = await startReferenceTarget({ host: '127.0.0.1', port: 0 });
      return { baseUrl: target.baseUrl, credentials: credentialsFromReference(target.credentials), close: () => target.close() };
    },
  },
  {
    name: `a faulty target: ${overstatedWindow.name}`,
    suites: overstatedWindow.suites,
    ...(overstatedWindow.config ? { config: overstatedWindow.config } : {}),
    async start() {
      const target = await startFaultyTarget(overstatedWindow.fault);
      return { baseUrl: target.baseUrl, credentials: target.credentials, close: () => target.close() };
    },
  },
];

async function runOnce(c: Case): Promise<JobOutcome> {
  const target = await c.start();
  try {
    return await runHarness({ baseUrl: target.baseUrl, credentials: target.credentials, suites: c.suites, ...(c.config ? { config: c.config } : {}) });
  } finally {
    await target.close();
  }
}

/** Checks whose status differs between the two runs other than by "could not decide" with a reason. */
function verdictChanges(quiet: readonly CheckResult[], loaded: readonly CheckResult[]): string[] {
  const byId = new Map(loaded.map((r) => [r.id, r]));
  const changes: string[] = [];
  for (const q of quiet) {
    const l = byId.get(q.id);
    if (!l) {
      changes.push(`${q.id}: ran quietly (${q.status}) but not under load`);
      continue;
    }
    if (q.status === l.status) continue;
    const undecided = [q, l].filter((r) => r.status === 'undecided');
    const reasoned = undecided.length > 0 && undecided.every((r) => (r.message ?? '').trim().length > 0);
    if (!reasoned) changes.push(`${q.id}: ${q.status} quietly, ${l.status} under load (${l.message ?? q.message ?? 'no message'})`);
  }
  return changes;
}

describe('same target, same verdict: quiet and under a CPU hog on every core', () => {
  for (const c of CASES) {
    it(`${c.name} (${c.suites.join(', ')})`, async () => {
      const quiet = await runOnce(c);
      const hog = startCpuHog(HOG_BOUND_MS);
      let loaded: JobOutcome;
      try {
        expect(hog.pids.length).toBe(availableParallelism());
        loaded = await runOnce(c);
      } finally {
        hog.stop();
      }
      const q = quiet.report;
      const l = loaded.report;
      expect(l.checks.map((r) => r.id)).toEqual(q.checks.map((r) => r.id));
      expect(verdictChanges(q.checks, l.checks)).toEqual([]);
      // Every undecided result says why, in measured terms, and is counted apart from passes and failures.
      for (const r of [...q.checks, ...l.checks].filter((x) => x.status === 'undecided')) {
        expect(r.message, r.id).toMatch(/\d/);
      }
      for (const report of [q, l]) {
        expect(report.summary.undecided).toBe(report.checks.filter((r) => r.status === 'undecided').length);
        // Both runs measured their own conditions while they ran.
        expect(report.conditions?.loopDelayMs?.count ?? 0).toBeGreaterThan(0);
        expect(report.conditions?.rttMs?.count ?? 0).toBeGreaterThan(0);
      }
      // Same verdict, unless a check could not decide in one run (a MUST one makes that run incomplete).
      const anyUndecided = q.summary.undecided! + l.summary.undecided! > 0;
      if (!anyUndecided) expect(l.verdict).toBe(q.verdict);
      // The faulty target's own finding is never turned into a different one by load.
      if (c.name.startsWith('a faulty target')) {
        for (const report of [q, l]) {
          const failed = report.checks.filter((r) => r.status === 'failed').map((r) => r.id);
          expect(failed.every((id) => overstatedWindow.failing.includes(id)), `${failed.join(', ')}`).toBe(true);
        }
      }
    }, 420_000);
  }
});
