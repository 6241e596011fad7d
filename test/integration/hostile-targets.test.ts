/**
 * The hostile-target corpus: small faulty servers on 127.0.0.1 (test/targets/hostile/servers.ts), and the real
 * CLI against each. Every run must end in bounded time (the child is killed at its limit, failing the test) with
 * report.json, report.html and junit.xml written and a documented exit code. The 10 MB case's peak memory is
 * measured in the child process. Timeouts in the config are small so the corpus stays fast.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EXIT_CODE_DOCS } from '../../src/exit-codes.ts';
import { createDefaultRegistry } from '../../suites/index.ts';
import { closedPort, startHostile, type HostileKind, type HostileOptions, type HostileTarget } from '../targets/hostile/servers.ts';
import { runMeasured, type MeasuredResult } from '../helpers/run-measured.ts';

const CONFIG = `
target:
  timeoutMs: 400
credentials:
  apiKey: sk_hostile_full_key_0001
  restrictedKey: sk_hostile_restricted_0001
  secondKey: sk_hostile_second_0001
  login:
    email: reviewer@example.com
    password: hostile-password-0001
conformance:
  checkTimeoutMs: 1500
  maxWaitSeconds: 1
`;
const DOCUMENTED = EXIT_CODE_DOCS.map(([code]) => code as number);
/** Suites that exercise many operations without long waits; the 10 MB case runs every suite. */
const SUITES = 'smoke,auth,errors,schemas,pagination,standing';

let target: HostileTarget | undefined;
afterEach(async () => {
  await target?.close();
  target = undefined;
});

function setup(): { out: string; config: string } {
  const dir = mkdtempSync(join(tmpdir(), 'harness-hostile-'));
  const config = join(dir, 'harness.config.yaml');
  writeFileSync(config, CONFIG);
  return { out: join(dir, 'reports'), config };
}

/** The one report the run wrote, after checking all three files are there. */
function reportOf(out: string): any {
  const runs = readdirSync(out);
  expect(runs).toHaveLength(1);
  for (const file of ['report.json', 'report.html', 'junit.xml']) expect(existsSync(join(out, runs[0]!, file)), file).toBe(true);
  return JSON.parse(readFileSync(join(out, runs[0]!, 'report.json'), 'utf8'));
}

function expectClean(result: MeasuredResult): void {
  expect(DOCUMENTED, `exit ${result.code}\n${result.stdout}\n${result.stderr}`).toContain(result.code);
  expect(result.stderr).not.toMatch(/internal error|\n\s+at .+:\d+:\d+/);
}

async function run(kind: HostileKind | 'closed-port', options: HostileOptions & { suites?: string; command?: 'run' | 'load' } = {}) {
  let baseUrl: string;
  if (kind === 'closed-port') baseUrl = await closedPort();
  else {
    target = await startHostile(kind, options);
    baseUrl = target.baseUrl;
  }
  const { out, config } = setup();
  const args = options.command === 'load'
    ? ['load', '--scenario', 'smoke', '--target', baseUrl, '--config', config, '--out', out, '--no-progress']
    : ['run', '--no-load', '--target', baseUrl, '--config', config, '--out', out, '--quiet', ...(options.suites === 'all' ? [] : ['--suite', options.suites ?? SUITES])];
  const result = await runMeasured(args, { timeoutMs: 90_000 });
  expectClean(result);
  return { result, report: reportOf(out) };
}

describe('hostile targets: harness run --no-load ends, bounded, with a report', () => {
  it('10 MB body on every answer: every suite runs, peak RSS far below the 4.4 GB seen before', async () => {
    const { result, report } = await run('big-body', { suites: 'all' });
    expect(report.checks.length).toBeGreaterThan(100);
    // Bodies are read up to 1 MiB, a check's log and the traffic log are bounded in bytes; 1 GiB leaves room for a busy GC.
    expect(result.peakRssKiB).toBeGreaterThan(0);
    expect(result.peakRssKiB).toBeLessThan(1024 * 1024);
    const evidence = report.checks.flatMap((c: any) => c.evidence?.exchanges ?? []).find((e: any) => e.response);
    expect(evidence.response.body).toContain('10485760 bytes received in all');
  }, 120_000);

  it.each([
    ['accepts and never answers', 'never-answers'],
    ['drips one byte every 100 ms', 'drip'],
    ['resets every connection', 'reset'],
    ['crashed before the run (nothing listens)', 'closed-port'],
  ] as const)('preflight: %s → exit 3, unreachable', async (_name, kind) => {
    const { result, report } = await run(kind);
    expect(result.code).toBe(3);
    expect(report.run.aborted.code).toBe('HARNESS_ERR_TARGET_UNREACHABLE');
    expect(report.verdict).toBe('incomplete');
    expect(report.checks).toHaveLength(0);
  });

  it.each([
    ['stops answering at request 12', 'never-answers'],
    ['starts dripping at request 12', 'drip'],
    ['crashes at request 12', 'crash-at-n'],
  ] as const)('mid-run: %s → exit 3, "target lost", naming the check where it stopped', async (_name, kind) => {
    const { result, report } = await run(kind, { faultAt: 12 });
    expect(result.code).toBe(3);
    expect(report.run.aborted.code).toBe('HARNESS_ERR_TARGET_LOST');
    const last = report.checks.at(-1).id;
    expect(report.run.aborted.message).toContain(`lost during check ${last}`);
    expect(result.stdout).toContain('lost during check');
    // The run stopped there: not every selected check ran.
    const selected = createDefaultRegistry().select(SUITES.split(',')).reduce((n, suite) => n + suite.checks.length, 0);
    expect(report.checks.length).toBeLessThan(selected);
  });

  it.each([
    ['malformed JSON', 'malformed-json'],
    ['truncated JSON (Content-Length not met)', 'truncated-json'],
    ['HTTP/1.0 answers', 'http-1.0'],
    ['empty bodies', 'empty-body'],
    ['100 KB headers', 'huge-headers'],
  ] as const)('%s → a report and a documented exit code', async (_name, kind) => {
    const { result, report } = await run(kind);
    expect([1, 3, 4]).toContain(result.code);
    expect(['not-certified', 'incomplete']).toContain(report.verdict);
  });
});

describe('hostile targets in the preflight of harness load --scenario smoke', () => {
  it.each([
    ['accepts and never answers', 'never-answers'],
    ['drips one byte every 100 ms', 'drip'],
    ['crashed before the run', 'closed-port'],
  ] as const)('%s → exit 3 with report files', async (_name, kind) => {
    const { result, report } = await run(kind, { command: 'load' });
    expect(result.code).toBe(3);
    expect(report.run.aborted.code).toBe('HARNESS_ERR_TARGET_UNREACHABLE');
  });
});
