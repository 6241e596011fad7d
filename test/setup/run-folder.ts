/**
 * A folder of one test run's own, named after the vitest main process (`<prefix><pid>`), for what the run makes and
 * removes at its end. A run killed before its teardown leaves its folder behind: the next run removes every such
 * folder whose process is gone.
 */
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/** Is `pid` a running process (ours or another user's)? */
function alive(pid: number): boolean {
  try {
    return Number.isInteger(pid) && pid > 0 && process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** `<parent>/<prefix><this pid>`, empty, after removing the folders of runs whose process is gone. */
export function runFolder(parent: string, prefix = ''): string {
  if (existsSync(parent)) {
    for (const entry of readdirSync(parent)) {
      if (!entry.startsWith(prefix)) continue;
      const pid = entry.slice(prefix.length);
      if (/^\d+$/.test(pid) && !alive(Number(pid))) rmSync(join(parent, entry), { recursive: true, force: true });
    }
  }
  const folder = join(parent, `${prefix}${process.pid}`);
  rmSync(folder, { recursive: true, force: true });
  return folder;
}
