/**
 * Every output path is probed before any traffic or work: `run --har` to a folder once ran the whole suite, printed
 * "internal error" and hung with the embedded target listening; export and compare exited 70. And a reader that
 * stops reading (`| head -1`) ends the command quietly.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reportOfKind } from '../../fixtures/reports/report-kinds.ts';
import { HARNESS_BIN } from '../../helpers/cli.ts';
import { runMeasured } from '../../helpers/run-measured.ts';
import { hostileTargets, setup } from './lib/hostile-run.ts';

const hostile = hostileTargets();

/** A load report to compare (compare probes its outputs before it reads any report, but the inputs are real). */
const REPORT_A = join(mkdtempSync(join(tmpdir(), 'harness-compare-in-')), 'report.json');
writeFileSync(REPORT_A, JSON.stringify(reportOfKind('load')));

describe('unwritable output paths are usage errors (exit 2) naming the path, found before any traffic', () => {
  const places = (): { folder: string; fileAsFolder: string; proc: string } => {
    const dir = mkdtempSync(join(tmpdir(), 'harness-unwritable-'));
    const file = join(dir, 'a-file');
    writeFileSync(file, 'x');
    return { folder: dir, fileAsFolder: join(file, 'out.har'), proc: '/proc/self/harness.har' };
  };

  it.each([
    ['a folder', 'folder', /it is a folder, not a file/],
    ['a path below a regular file', 'fileAsFolder', /is not a folder|does not exist|not a folder/],
    ['a kernel pseudo-filesystem', 'proc', /pseudo-filesystem/],
  ] as const)('run --har to %s → exit 2 before the preflight (the target saw no request)', async (_name, where, reason) => {
    const target = await hostile.start('empty-body');
    const { out, config } = setup();
    const path = places()[where];
    const result = await runMeasured(['run', '--no-load', '--target', target.baseUrl, '--config', config, '--out', out, '--quiet', '--har', path], { timeoutMs: 60_000 });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(`cannot write "${path}" (--har)`);
    expect(result.stderr).toMatch(reason);
    expect(result.stderr).not.toMatch(/internal error|\n\s+at .+:\d+:\d+/);
    expect(target.requests()).toBe(0);
  });

  it('with the embedded target too: run --har to a folder, no --target → exit 2 and the process ends (nothing left listening)', async () => {
    const { out } = setup();
    const result = await runMeasured(['run', '--no-load', '--out', out, '--quiet', '--har', places().folder], { timeoutMs: 60_000 });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(/cannot write ".*" \(--har\): it is a folder/);
  });

  it.each([
    ['export openapi --out <folder>', (p: ReturnType<typeof places>) => ['export', 'openapi', '--out', p.folder], 'export openapi --out'],
    ['export k6 --out <below a file>', (p: ReturnType<typeof places>) => ['export', 'k6', '--scenario', 'smoke', '--out', p.fileAsFolder], 'export k6 --out'],
    ['compare --out /proc/…', (_p: ReturnType<typeof places>) => ['compare', REPORT_A, REPORT_A, '--out', '/proc/self/harness-compare'], '--out'],
    ['compare --summary-md <folder>', (p: ReturnType<typeof places>) => ['compare', REPORT_A, REPORT_A, '--out', join(p.folder, 'cmp'), '--summary-md', p.folder], '--summary-md'],
  ] as const)('%s → exit 2 naming the path and the flag', async (_name, argsOf, flag) => {
    const result = await runMeasured([...argsOf(places())], { timeoutMs: 60_000 });
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(2);
    expect(result.stderr).toContain(`(${flag})`);
    expect(result.stderr).not.toMatch(/internal error|\n\s+at .+:\d+:\d+/);
  });
});

describe('a reader that stops reading', () => {
  it('harness --help | head -1 ends quietly: no EPIPE stack trace, exit 0 (five tries: the race is in the pipe)', async () => {
    // bin/harness.js exactly as a user's checkout runs it (the sources, not the test suite's build). The five tries
    // run side by side: each is a pipe of its own, and waiting for one before the next proves nothing more.
    const dir = mkdtempSync(join(tmpdir(), 'harness-epipe-'));
    const tries = Array.from({ length: 5 }, (_, i) => {
      const errFile = join(dir, `err-${i}.txt`);
      const shell = spawn('bash', ['-c', `"${process.execPath}" "${HARNESS_BIN}" --help 2>"${errFile}" | head -1 >/dev/null; echo "\${PIPESTATUS[0]}"`], { env: { ...process.env, HARNESS_CLI_ENTRY: '' } });
      let stdout = '';
      shell.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      const limit = setTimeout(() => shell.kill('SIGKILL'), 60_000);
      return new Promise<{ errFile: string; stdout: string }>((resolvePromise, reject) => {
        shell.on('error', reject);
        shell.on('close', () => {
          clearTimeout(limit);
          resolvePromise({ errFile, stdout });
        });
      });
    });
    for (const { errFile, stdout } of await Promise.all(tries)) {
      expect(readFileSync(errFile, 'utf8')).toBe('');
      expect(stdout.trim()).toBe('0');
    }
  }, 90_000);
});
