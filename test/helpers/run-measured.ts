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
}

const GNU_TIME = '/usr/bin/time';

export function runMeasured(args: string[], options: { timeoutMs?: number; env?: NodeJS.ProcessEnv } = {}): Promise<MeasuredResult> {
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
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
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
      resolve({ code, stdout, stderr: useTime ? stderr.replace(/^Command (exited with non-zero status \d+|terminated by signal \d+)\n?/m, '') : stderr, peakRssKiB });
    });
  });
}
