/**
 * A cancelled `harness load` (SIGINT, as Ctrl-C sends) exits 105, the documented interruption code, writes its
 * partial report, and that report's page and junit.xml say "INTERRUPTED (exit 105)": the files agree with the exit.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HARNESS_BIN, REPO_ROOT } from '../../helpers/cli.ts';

describe('harness load interrupted', () => {
  it('exits 105 and its report says INTERRUPTED (exit 105)', async () => {
    const out = mkdtempSync(join(tmpdir(), 'harness-interrupt-'));
    const child = spawn(process.execPath, [HARNESS_BIN, 'load', '--scenario', 'smoke', '--duration', '20s', '--out', out, '--no-progress'], {
      cwd: REPO_ROOT,
      env: { ...process.env, NO_COLOR: '1' },
    });
    let stdout = '';
    let sent = false;
    const code = await new Promise<number | null>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`no exit within 60 s\n${stdout}`));
      }, 60_000);
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        // Once the scenario is running, interrupt it as Ctrl-C would.
        if (stdout.includes('load: smoke') && !sent) {
          sent = true; // one SIGINT only: a second would end the process before it writes its report
          setTimeout(() => child.kill('SIGINT'), 1000);
        }
      });
      child.on('close', (c) => {
        clearTimeout(timer);
        resolve(c);
      });
    });
    expect(code, stdout).toBe(105);
    const [runId] = readdirSync(out);
    const report = JSON.parse(readFileSync(join(out, runId!, 'report.json'), 'utf8'));
    expect(report.run.aborted.code).toBe('HARNESS_ABORTED');
    expect(readFileSync(join(out, runId!, 'report.html'), 'utf8')).toContain('INTERRUPTED — partial report (exit 105)');
    expect(readFileSync(join(out, runId!, 'junit.xml'), 'utf8')).toMatch(/<error message="INTERRUPTED — partial report \(exit 105\): [^"]*" type="HARNESS_ABORTED"/);
  }, 90_000);
});
