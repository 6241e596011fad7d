/** Runs the real `harness` command (bin/harness.js) as a child process, as a user would. */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const HARNESS_BIN = fileURLToPath(new URL('../../bin/harness.js', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [HARNESS_BIN, ...args], {
      cwd: options.cwd ?? REPO_ROOT,
      env: { ...process.env, NO_COLOR: '1', ...options.env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`harness ${args.join(' ')} did not finish within ${options.timeoutMs ?? 60_000} ms\n${stdout}\n${stderr}`));
    }, options.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Starts `harness serve` and resolves with the parsed first line once it is listening. */
export function startServe(args: string[] = []): Promise<{ child: ChildProcessWithoutNullStreams; banner: Record<string, any>; output: () => string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [HARNESS_BIN, 'serve', '--port', '0', ...args], { cwd: REPO_ROOT, env: { ...process.env, NO_COLOR: '1' } });
    let stdout = '';
    let stderr = '';
    // A bound, not a speed claim: on a machine with load average 20 a CLI process takes 12–22 s to start (tsx
    // compiles the sources), so 20 s failed the tour there. A serve that never starts is killed, not left behind.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`serve did not start within 90 s:\n${stdout}\n${stderr}`));
    }, 90_000);
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const newline = stdout.indexOf('\n');
      if (newline >= 0 && timer) {
        clearTimeout(timer);
        try {
          resolve({ child, banner: JSON.parse(stdout.slice(0, newline)) as Record<string, any>, output: () => stdout });
        } catch (err) {
          reject(new Error(`first line is not JSON: ${stdout.slice(0, newline)} (${(err as Error).message})`));
        }
      }
    });
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}:\n${stdout}\n${stderr}`)));
  });
}

export function stop(child: ChildProcessWithoutNullStreams): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve(child.exitCode);
    child.once('exit', (code) => resolve(code));
    child.kill('SIGTERM');
  });
}
