/**
 * Runs the real `harness` CLI in a child process and measures its peak resident memory (VmHWM) — the number a
 * hostile target drove to 4.4 GB. With GNU time available it reports the exact peak (`%M`); otherwise
 * /proc/<pid>/status is sampled until the child exits (a lower bound of the peak, which is what an upper-bound
 * assertion needs to be honest about: it can only under-report, so the test's bound stays far below 4.4 GB).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HARNESS_BIN, REPO_ROOT, type CliResult } from './cli.ts';

export interface MeasuredResult extends CliResult {
  /** Peak resident set size of the harness process, in KiB. */
  peakRssKiB: number;
  /** With `interrupt`: ms from the signal to the process's end (undefined when the signal was never sent). */
  afterSignalMs?: number;
}

export interface InterruptAt {
  /** Send the signal once stdout holds this text… */
  when: string;
  /** …this long after it appeared. */
  afterMs: number;
  signal?: NodeJS.Signals;
}

const GNU_TIME = '/usr/bin/time';

export function runMeasured(args: string[], options: { timeoutMs?: number; env?: NodeJS.ProcessEnv; interrupt?: InterruptAt } = {}): Promise<MeasuredResult> {
  const useTime = existsSync(GNU_TIME);
  const timeFile = join(mkdtempSync(join(tmpdir(), 'harness-rss-')), 'rss');
  const [command, argv] = useTime
    ? [GNU_TIME, ['-f', '%M', '-o', timeFile, process.execPath, HARNESS_BIN, ...args]]
    : [process.execPath, [HARNESS_BIN, ...args]];
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv, { cwd: REPO_ROOT, env: { ...process.env, NO_COLOR: '1', ...options.env } });
    let stdout = '';
    let stderr = '';
    let sampled = 0;
    let signalledAt: number | undefined;
    let armed = false;
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const interrupt = options.interrupt;
      if (!interrupt || armed || !stdout.includes(interrupt.when)) return;
      armed = true;
      // GNU time ignores SIGINT itself and passes nothing on: the signal goes to the harness, time's child. One signal
      // only (a second would shorten the harness's wait).
      setTimeout(() => {
        signalledAt = performance.now();
        const pid = useTime ? childOf(child.pid!) : child.pid;
        if (pid) process.kill(pid, interrupt.signal ?? 'SIGINT');
      }, interrupt.afterMs);
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const sampler = useTime
      ? undefined
      : setInterval(() => {
          try {
            const hwm = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
            if (hwm) sampled = Math.max(sampled, Number(hwm[1]));
          } catch {
            // The child has exited between two samples.
          }
        }, 50);
    const limit = options.timeoutMs ?? 60_000;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`harness ${args.join(' ')} did not finish within ${limit} ms\n${stdout}\n${stderr}`));
    }, limit);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (sampler) clearInterval(sampler);
      const peakRssKiB = useTime ? Number(readFileSync(timeFile, 'utf8').trim().split('\n').pop()) : sampled;
      // GNU time reports the child's own exit status in its exit code, except for a signal ("Command terminated").
      const afterSignalMs = signalledAt === undefined ? undefined : performance.now() - signalledAt;
      resolve({ code, stdout, stderr: useTime ? stderr.replace(/^Command (exited with non-zero status \d+|terminated by signal \d+)\n?/m, '') : stderr, peakRssKiB, ...(afterSignalMs !== undefined ? { afterSignalMs } : {}) });
    });
  });
}

/** The first child process of `pid` (Linux: /proc/<pid>/task/<pid>/children), if any. */
function childOf(pid: number): number | undefined {
  try {
    const first = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/)[0];
    return first ? Number(first) : undefined;
  } catch {
    return undefined;
  }
}
