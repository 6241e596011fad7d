/** The folders a test run keeps for itself (test/setup/run-folder.ts): its own, empty; those of dead runs removed. */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runFolder } from '../../setup/run-folder.ts';

describe('runFolder', () => {
  it("removes the folders of runs whose process is gone, keeps a live run's and anything else, and empties its own", () => {
    const parent = mkdtempSync(join(tmpdir(), 'run-folder-'));
    // A process that has exited: its pid names a run that was killed before its teardown.
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    const live = process.ppid;
    for (const name of [`harness-tests-${dead}`, `harness-tests-${live}`, `harness-tests-${process.pid}`, `other-${dead}`, 'harness-tests-x1']) {
      mkdirSync(join(parent, name));
      writeFileSync(join(parent, name, 'left.txt'), 'x');
    }
    const own = runFolder(parent, 'harness-tests-');
    expect(own).toBe(join(parent, `harness-tests-${process.pid}`));
    expect(existsSync(own)).toBe(false);
    expect(readdirSync(parent).sort()).toEqual([`harness-tests-${live}`, 'harness-tests-x1', `other-${dead}`].sort());
    rmSync(parent, { recursive: true, force: true });
  });

  it('works on a parent that does not exist yet', () => {
    const parent = join(mkdtempSync(join(tmpdir(), 'run-folder-')), 'missing');
    expect(runFolder(parent)).toBe(join(parent, String(process.pid)));
  });
});
