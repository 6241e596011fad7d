/** bench/gate's processes: `harness serve` targets and bounded `harness` commands (HARNESS_CLI, default bin/harness.js). */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

const CLI = process.env.HARNESS_CLI ?? 'bin/harness.js';

export interface Served {
  baseUrl: string;
  loadKey: string;
  child: ChildProcess;
}

export function serve(extra: string[]): Promise<Served> {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', ...extra], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('harness serve did not start in 60 s')), 60_000);
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      if (!line.startsWith('{"event":"reference-target.listening"')) return;
      clearTimeout(timer);
      const event = JSON.parse(line) as { baseUrl: string; credentials: { apiKeys: { load: string } } };
      resolve({ baseUrl: event.baseUrl, loadKey: event.credentials.apiKeys.load, child });
    });
    child.once('exit', (code) => reject(new Error(`harness serve exited ${code}`)));
  });
}

export function run(argv: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...argv], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } });
    let stdout = '';
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    // Bounded: a gate run is about 32 s; anything past 180 s is killed.
    const timer = setTimeout(() => child.kill('SIGKILL'), 180_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout });
    });
  });
}
