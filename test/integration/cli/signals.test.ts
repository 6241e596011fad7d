/**
 * SIGINT and SIGTERM on a real `harness` process: the run stops, the partial report is written, and the exit code
 * is 105 (interrupted) — also when a second signal follows 50 ms later, and for `harness load`. An interruption is
 * never a NOT-CERTIFIED verdict by itself.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HARNESS_BIN, REPO_ROOT } from '../../helpers/cli.ts';

interface Interrupted {
  code: number | null;
  stdout: string;
  stderr: string;
  out: string;
}

/** Starts the CLI, waits for `ready` in its output, sends the signals (`gapMs` apart), and waits for the exit. */
function interrupt(args: string[], ready: RegExp, signals: NodeJS.Signals[], gapMs = 50): Promise<Interrupted> {
  const out = mkdtempSync(join(tmpdir(), 'harness-signal-'));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [HARNESS_BIN, ...args, '--out', out], { cwd: REPO_ROOT, env: { ...process.env, NO_COLOR: '1' } });
    let stdout = '';
    let stderr = '';
    let sent = false;
    const onOutput = (): void => {
      if (sent || !ready.test(stdout + stderr)) return;
      sent = true;
      signals.forEach((signal, i) => setTimeout(() => child.kill(signal), i * gapMs));
    };
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      onOutput();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      onOutput();
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`harness ${args.join(' ')} did not end within 60 s of starting\n${stdout}\n${stderr}`));
    }, 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, out });
    });
  });
}

function reportOf(out: string): any {
  const [runId] = readdirSync(out);
  expect(runId).toBeDefined();
  for (const file of ['report.json', 'report.html', 'junit.xml']) expect(existsSync(join(out, runId!, file)), file).toBe(true);
  return JSON.parse(readFileSync(join(out, runId!, 'report.json'), 'utf8'));
}

const RUN = ['run', '--no-load', '--suite', 'smoke,auth,schemas,pagination'];
/** The first check result line: the run is under way. */
const CHECK_LINE = /PASS/;

describe('signals on a real process', () => {
  it.each([
    ['SIGINT', ['SIGINT']],
    ['SIGTERM', ['SIGTERM']],
    ['SIGINT twice, 50 ms apart', ['SIGINT', 'SIGINT']],
  ] as Array<[string, NodeJS.Signals[]]>)('harness run, %s: partial report written, exit 105, not NOT-CERTIFIED', async (_name, signals) => {
    const result = await interrupt(RUN, CHECK_LINE, signals);
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(105);
    expect(result.stderr).toContain(`received ${signals[0]}`);
    const report = reportOf(result.out);
    expect(report.run.aborted.code).toBe('HARNESS_ABORTED');
    expect(report.verdict).not.toBe('not-certified');
    expect(report.checks.length).toBeGreaterThan(0);
    expect(result.stderr).not.toMatch(/internal error|\n\s+at .+:\d+:\d+/);
  }, 90_000);

  it('harness load, SIGINT during the scenario: exit 105 with report files', async () => {
    const result = await interrupt(['load', '--scenario', 'smoke', '--duration', '20s', '--no-progress'], /load: smoke/, ['SIGINT']);
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(105);
    const report = reportOf(result.out);
    expect(report.run.aborted.code).toBe('HARNESS_ABORTED');
  }, 90_000);

  it('harness probe ratelimit, SIGTERM while probing: exit 105 with a report of what was measured, marked interrupted', async () => {
    const result = await interrupt(['probe', 'ratelimit', '--budget-seconds', '30', '--max-rps', '20'], /probe ratelimit:/, ['SIGTERM'], 0);
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(105);
    const report = reportOf(result.out);
    expect(report.run.aborted.code).toBe('HARNESS_ABORTED');
    expect(report.rateLimit).toBeDefined();
  }, 90_000);
});
