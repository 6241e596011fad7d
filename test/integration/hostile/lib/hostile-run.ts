/**
 * Shared by the hostile-target corpus (test/integration/hostile/*.test.ts): small faulty servers on 127.0.0.1
 * (test/targets/hostile/servers.ts), and the real CLI against each. Every run must end in bounded time (the child
 * is killed at its limit, failing the test) with report.json, report.html and junit.xml written and a documented
 * exit code. Timeouts in the config are small so the corpus stays fast.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect } from 'vitest';
import { EXIT_CODE_DOCS } from '../../../../src/errors/exit-codes.ts';
import { closedPort, startHostile, type HostileKind, type HostileOptions, type HostileTarget } from '../../../targets/hostile/servers.ts';
import { runMeasured, type InterruptAt, type MeasuredResult } from '../../../helpers/run-measured.ts';

export const CONFIG = `
target:
  timeoutMs: 400
credentials:
  apiKey: sk_hostile_full_key_0001
  loadKey: sk_hostile_load_key_0001
  restrictedKey: sk_hostile_restricted_0001
  secondKey: sk_hostile_second_0001
  login:
    email: reviewer@example.com
    password: hostile-password-0001
conformance:
  checkTimeoutMs: 1500
  maxWaitSeconds: 1
`;
export const DOCUMENTED = EXIT_CODE_DOCS.map(([code]) => code as number);
/** Suites that exercise many operations without long waits; the memory cases run every suite. */
export const SUITES = 'smoke,auth,errors,schemas,pagination,standing';

/** A fresh folder with the corpus's config (its target timeout replaced when given) and where reports go. */
export function setup(timeoutMs?: number): { dir: string; out: string; config: string } {
  const dir = mkdtempSync(join(tmpdir(), 'harness-hostile-'));
  const config = join(dir, 'harness.config.yaml');
  writeFileSync(config, timeoutMs === undefined ? CONFIG : CONFIG.replace('timeoutMs: 400', `timeoutMs: ${timeoutMs}`));
  return { dir, out: join(dir, 'reports'), config };
}

/** The one report the run wrote, after checking all three files are there. */
export function reportOf(out: string): any {
  const runs = readdirSync(out);
  expect(runs).toHaveLength(1);
  for (const file of ['report.json', 'report.html', 'junit.xml']) expect(existsSync(join(out, runs[0]!, file)), file).toBe(true);
  return JSON.parse(readFileSync(join(out, runs[0]!, 'report.json'), 'utf8'));
}

/** A file of the one run folder under `out`. */
export function runFile(out: string, file: string): string {
  return readFileSync(join(out, readdirSync(out)[0]!, file), 'utf8');
}

export function expectClean(result: MeasuredResult): void {
  expect(DOCUMENTED, `exit ${result.code}\n${result.stdout}\n${result.stderr}`).toContain(result.code);
  expect(result.stderr).not.toMatch(/internal error|\n\s+at .+:\d+:\d+/);
}

export type HostileRunOptions = HostileOptions & {
  suites?: string;
  command?: 'run' | 'load';
  timeoutMs?: number;
  loadArgs?: string[];
  interrupt?: InterruptAt;
  /** When the child is killed (failing the test): a bound on a hang, not a speed claim. @default 90 s */
  limitMs?: number;
};

/**
 * The hostile targets of one test file: call at the top of the file (it registers the afterEach that closes the
 * target a test started). `start` starts one; `run` starts one and runs `run --no-load` (or `load --scenario smoke`)
 * against it, checking the run ended clean with its three report files.
 */
export function hostileTargets(): {
  start(kind: HostileKind, options?: HostileOptions): Promise<HostileTarget>;
  run(kind: HostileKind | 'closed-port', options?: HostileRunOptions): Promise<{ result: MeasuredResult; report: any; out: string }>;
} {
  let target: HostileTarget | undefined;
  afterEach(async () => {
    await target?.close();
    target = undefined;
  });
  const start = async (kind: HostileKind, options: HostileOptions = {}): Promise<HostileTarget> => {
    target = await startHostile(kind, options);
    return target;
  };
  return {
    start,
    async run(kind, options = {}) {
      const baseUrl = kind === 'closed-port' ? await closedPort() : (await start(kind, options)).baseUrl;
      const { out, config } = setup(options.timeoutMs);
      const args = options.command === 'load'
        ? ['load', '--scenario', 'smoke', '--target', baseUrl, '--config', config, '--out', out, '--no-progress', ...(options.loadArgs ?? [])]
        : ['run', '--no-load', '--target', baseUrl, '--config', config, '--out', out, '--quiet', ...(options.suites === 'all' ? [] : ['--suite', options.suites ?? SUITES])];
      const result = await runMeasured(args, { timeoutMs: options.limitMs ?? 90_000, ...(options.interrupt ? { interrupt: options.interrupt } : {}) });
      expectClean(result);
      return { result, report: reportOf(out), out };
    },
  };
}
