/**
 * vitest globalSetup, first of all: a temporary folder of this run's own (<the system's temporary folder>/
 * harness-tests-<pid>), named in TMPDIR before the test workers, Chromium and every child process start. What the
 * tests make in os.tmpdir() (hundreds of folders of reports, configs and packages in a run) goes there and is removed
 * when the run ends, as is what a killed run left (test/setup/run-folder.ts).
 */
import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { runFolder } from './run-folder.ts';

export default function setup(): () => void {
  const before = process.env.TMPDIR;
  const folder = runFolder(tmpdir(), 'harness-tests-');
  mkdirSync(folder, { recursive: true });
  process.env.TMPDIR = folder;
  return () => {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    rmSync(folder, { recursive: true, force: true, maxRetries: 3 });
  };
}
