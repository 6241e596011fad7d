/**
 * bench/load-engine: how every section measures a generator run, and the machine header printed once per bench run.
 *
 * CPU is the generator's user + system time, all of its threads:
 *   - the harness (runScenario in this process): process.cpuUsage() before and after the call, which covers the main
 *     thread, the worker threads of `--workers N`, V8's and libuv's threads and, under tsx, the loader's thread.
 *     Its requests are the run's plus the warm-up's (the CPU paid for both). Beside it, `steady`: the CPU between
 *     the progress sample at ≥ 1 s after t0 and the last one (sampled once a second through runScenario's `progress`
 *     sink) over the requests answered between those instants (from the run's final per-second timeline), which
 *     leaves out the start (worker threads loading their modules: seconds of CPU under tsx), the warm-up and the end.
 *   - a peer (wrk, wrk2, the autocannon CLI): a child process run under bash, whose `times` builtin prints the user
 *     and system time of the children it waited for (getrusage(RUSAGE_CHILDREN): the child and all of its threads,
 *     to the millisecond; plain sh's `times` when bash is missing, to the clock tick). taskset execs the peer, so
 *     a pinned peer is the same process. Its requests are all it sent (its CPU includes its own start: for the
 *     autocannon CLI, Node's start, about 0.1–0.2 s of CPU). Reading /proc/<pid>/stat before the child exits would
 *     race with its last work; `times` after it is reaped does not.
 * Every line for a run shows requests/s, CPU µs per request, total CPU s, and p99 and dropped where the generator
 * reports them.
 */
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, loadavg, release, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { defaultConfig } from '../../src/config/defaults.ts';
import type { ProgressSink } from '../../src/load/progress.ts';
import { runScenario, type RunScenarioOptions, type ScenarioOutcome } from '../../src/load/run-scenario.ts';
import { scenarioFromData } from '../../src/load/scenario/load.ts';
import type { ScenarioResult } from '../../src/load/result.ts';
import type { Scenario } from '../../src/load/scenario/types.ts';
import { which } from './nginx.ts';

const run = promisify(execFile);
export const out = (line: string): void => void process.stdout.write(`${line}\n`);
export const api = defaultConfig().api;

/** One generator run: what it achieved and what it cost. */
export interface Measured {
  rps: number;
  /** Requests the CPU paid for: the harness's run and warm-up; everything a peer sent. */
  requests: number;
  /** User + system CPU, µs. */
  cpuUs: number;
  /** Wall time the CPU was measured over, s (the harness: the whole runScenario call; a peer: its process). */
  wallS?: number;
  /** ms */
  p99?: number;
  dropped?: number;
  /** The harness only: CPU and requests from the progress sample at ≥ 1 s to the last one. */
  steady?: { cpuUs: number; requests: number };
  /** Short remarks printed at the end of the line (generator-bound, unpinned …). */
  notes?: string[];
}

/** A one-request GET / scenario, as every section runs it. */
export function scenario(data: Record<string, unknown>): Scenario {
  return scenarioFromData({ credential: 'none', requests: [{ name: 'get', method: 'GET', path: '/' }], ...data });
}

const cpuNow = (): number => {
  const c = process.cpuUsage();
  return c.user + c.system;
};

/** CPU (µs) this process spent while `fn` ran, every thread included. */
export async function inProcessCpu<T>(fn: () => Promise<T>): Promise<{ value: T; cpuUs: number }> {
  const before = process.cpuUsage();
  const value = await fn();
  const cpu = process.cpuUsage(before);
  return { value, cpuUs: cpu.user + cpu.system };
}

/** Requests answered by `ms` after t0, from the run's per-second timeline (spread evenly within each second). */
function answeredBy(timeline: ReadonlyArray<{ requests: number }>, ms: number): number {
  const whole = Math.floor(ms / 1000);
  let n = 0;
  for (let i = 0; i < whole && i < timeline.length; i++) n += timeline[i]!.requests;
  return n + ((ms % 1000) / 1000) * (timeline[whole]?.requests ?? 0);
}

/** A progress sample: ms since t0 and the process's CPU (µs) then. */
export interface CpuSample {
  elapsedMs: number;
  cpuUs: number;
}

/**
 * What a harness run measured, as one line's figures. The steady window: from the first progress sample at ≥ 1 s
 * after t0 to the last one before the run's end. Its requests come from the final timeline (exact, every
 * worker's), not from the live counts the samples carry (with workers, those lag by up to the workers'
 * once-a-second snapshot).
 */
export function measuredRun(result: ScenarioResult, samples: readonly CpuSample[], cpuUs: number, wallS: number): Measured {
  const end = result.durationMs ?? Infinity;
  const inRun = samples.filter((s) => s.elapsedMs >= 1000 && s.elapsedMs <= end);
  const first = inRun[0];
  const last = inRun.at(-1);
  const steadyRequests = first && last ? answeredBy(result.timeline, last.elapsedMs) - answeredBy(result.timeline, first.elapsedMs) : 0;
  const steady = first && last && last.elapsedMs - first.elapsedMs >= 900 && steadyRequests > 0 ? { cpuUs: last.cpuUs - first.cpuUs, requests: steadyRequests } : undefined;
  const notes = [...(result.workers !== undefined && result.workers > 1 ? [`${result.workers} workers`] : []), ...(result.generatorBound ? ['generator-bound'] : [])];
  return {
    rps: result.rps,
    requests: result.requests + (result.warmUp?.requests ?? 0),
    cpuUs,
    wallS,
    p99: result.latency.p99,
    dropped: result.dropped,
    ...(steady ? { steady } : {}),
    ...(notes.length ? { notes } : {}),
  };
}

/** runScenario in this process, with its CPU (whole call and steady seconds) and its wall time. */
export async function measureHarness(options: Omit<RunScenarioOptions, 'api' | 'credentials' | 'progress'>): Promise<{ measured: Measured; outcome: ScenarioOutcome }> {
  const samples: CpuSample[] = [];
  const progress: ProgressSink = { start() {}, stop() {}, update: (s) => void samples.push({ elapsedMs: s.elapsedMs, cpuUs: cpuNow() }) };
  const started = performance.now();
  const { value: outcome, cpuUs } = await inProcessCpu(() => runScenario({ ...options, api, credentials: {}, progress }));
  const wallS = (performance.now() - started) / 1000;
  return { measured: measuredRun(outcome.result, samples, cpuUs, wallS), outcome };
}

/**
 * runScenario in a fresh process of its own (scenario-child.mjs), pinned to `cpus`: `dist` runs the build with
 * plain node, as an installed harness does (npm run build first); `src` the sources under tsx. A fresh process
 * starts cold, as `harness load` does; in this one, a case run after others would find the hot path optimised on
 * the main thread but not in new worker threads. Under tsx, each worker thread also gets a module-loader thread
 * (a V8 heap of its own, collected now and then) that an installed harness does not have.
 */
export async function measureHarnessChild(options: ChildOptions): Promise<Measured> {
  const got = await runHarnessChild(options);
  return measuredRun(got.result, got.samples, got.cpuUs, got.wallS);
}

export interface ChildOptions {
  from: 'dist' | 'src';
  url: string;
  /** `thread`: one worker, run on a worker thread of its own (scenario-child.mjs). */
  workers: number | 'thread';
  /** Fields over a one-request GET / scenario (as `scenario` makes it). */
  scenario: Record<string, unknown>;
  cpus: string | undefined;
}

/** What scenario-child.mjs prints. */
export interface ChildRun {
  result: ScenarioResult;
  samples: CpuSample[];
  cpuUs: number;
  wallS: number;
  firstDropped: number;
}

/** The command line of one scenario-child.mjs run (pinned to `cpus` when given). */
export function harnessChildCommand(options: ChildOptions): string[] {
  const child = fileURLToPath(new URL('./scenario-child.mjs', import.meta.url));
  const node = options.from === 'src' ? [process.execPath, '--import', 'tsx'] : [process.execPath];
  return [...(options.cpus ? ['taskset', '-c', options.cpus] : []), ...node, child, options.from, options.url, String(options.workers), JSON.stringify(options.scenario)];
}

/** What scenario-child.mjs printed: its last line. */
export const parseChildRun = (stdout: string): ChildRun => JSON.parse(stdout.trim().split('\n').at(-1) as string) as ChildRun;

export async function runHarnessChild(options: ChildOptions): Promise<ChildRun> {
  const command = harnessChildCommand(options);
  const { stdout } = await run(command[0] as string, command.slice(1), { maxBuffer: 1 << 24 });
  return parseChildRun(stdout);
}

export const cpuPerRequest = (m: Pick<Measured, 'cpuUs' | 'requests'> | undefined): number | undefined => (m && m.requests > 0 ? m.cpuUs / m.requests : undefined);

const fixed = (x: number | undefined, digits: number, width: number): string => (x === undefined || !Number.isFinite(x) ? '—' : x.toFixed(digits)).padStart(width);

/** One line for one run; `missing`: why there is no run. */
export function formatRun(label: string, m: Measured | undefined, missing = 'not run'): string {
  if (!m) return `${label.padEnd(36)} ${missing}`;
  const steady = m.steady ? `  steady ${fixed(cpuPerRequest(m.steady), 1, 0)} µs/req` : '';
  const wall = m.wallS ? ` in ${m.wallS.toFixed(1)} s` : '';
  return (
    `${label.padEnd(36)} ${fixed(m.rps, 0, 8)} req/s  ${fixed(cpuPerRequest(m), 1, 6)} µs CPU/req  ${fixed(m.cpuUs / 1e6, 2, 6)} s CPU${wall}` +
    `${m.p99 !== undefined ? `  p99 ${m.p99.toFixed(2)} ms` : ''}${m.dropped !== undefined ? `  dropped ${m.dropped}` : ''}${steady}${m.notes?.length ? `  (${m.notes.join(', ')})` : ''}`
  );
}

export const times = (x: number | undefined): string => (x === undefined || !Number.isFinite(x) ? 'n/a' : `${x.toFixed(2)}×`);

/** a's CPU per request over b's (whole runs, or their steady windows); undefined when either is unknown. */
export function cpuRatio(a: Pick<Measured, 'cpuUs' | 'requests'> | undefined, b: Pick<Measured, 'cpuUs' | 'requests'> | undefined): number | undefined {
  const x = cpuPerRequest(a);
  const y = cpuPerRequest(b);
  return x !== undefined && y ? x / y : undefined;
}

/** "a / b: CPU per request r×, throughput t×" for two runs of the same section. */
export function formatRatio(a: string, am: Measured | undefined, b: string, bm: Measured | undefined): string {
  const rps = am && bm && bm.rps > 0 ? am.rps / bm.rps : undefined;
  return `${a} / ${b}: CPU per request ${times(cpuRatio(am, bm))}, throughput ${times(rps)}`;
}

/** The median of the known values (the upper middle one of an even count, as medianRun); undefined when none is known. */
export function median(values: ReadonlyArray<number | undefined>): number | undefined {
  const known = values.filter((v): v is number => v !== undefined).sort((x, y) => x - y);
  return known[Math.floor(known.length / 2)];
}

/** The run with the median CPU per request of `runs` (its own figures, not a mix of several runs'). */
export function medianRun(runs: Array<Measured | undefined>): Measured | undefined {
  const present = runs.filter((m): m is Measured => cpuPerRequest(m) !== undefined).sort((x, y) => cpuPerRequest(x)! - cpuPerRequest(y)!);
  return present[Math.floor(present.length / 2)];
}

const shellQuote = (a: string): string => `'${a.replace(/'/g, "'\\''")}'`;

/** Runs a peer (pinned to `cpus` when given) and reads its user + system time from the shell's `times`. */
export async function measurePeer(command: string[], cpus: string | undefined): Promise<{ stdout: string; cpuUs: number; wallS: number }> {
  const shell = which('bash') ?? 'sh';
  const line = [...(cpus ? ['taskset', '-c', cpus] : []), ...command].map(shellQuote).join(' ');
  const started = performance.now();
  const { stdout } = await run(shell, ['-c', `${line}; rc=$?; echo __times__; times; exit $rc`], { maxBuffer: 64 << 20 });
  const wallS = (performance.now() - started) / 1000;
  const at = stdout.lastIndexOf('__times__\n');
  const body = at >= 0 ? stdout.slice(0, at) : stdout;
  // `times` prints the shell's own user/sys on its first line and its waited-for children's on the second.
  const children = stdout.slice(at + '__times__\n'.length).trim().split('\n')[1] ?? '';
  const seconds = [...children.matchAll(/(\d+)m([\d.]+)s/g)].reduce((sum, m) => sum + Number(m[1]) * 60 + Number(m[2]), 0);
  return { stdout: body, cpuUs: seconds * 1e6, wallS };
}

/** A peer run that may fail (binary broken, target gone) or not exist (undefined): its measure, or why there is none. */
export async function tryPeer(measure: () => Promise<Measured | undefined>): Promise<{ measured?: Measured; missing: string }> {
  try {
    const measured = await measure();
    return measured ? { measured, missing: '' } : { missing: 'not run (not installed)' };
  } catch (error) {
    return { missing: `failed: ${(error as Error).message.split('\n')[0]}` };
  }
}

const toMs = (value: string, unit: string): number => Number(value) * (unit === 'us' ? 0.001 : unit === 's' ? 1000 : unit === 'm' ? 60_000 : 1);

/** wrk's and wrk2's text (run with --latency): requests/s, the requests sent and the first 99 % line. */
export function parseWrk(stdout: string): Omit<Measured, 'cpuUs'> {
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1] ?? 0);
  const requests = Number(/(\d+) requests in/.exec(stdout)?.[1] ?? 0);
  const p99 = /^\s*99(?:\.0+)?%\s+([\d.]+)(us|ms|s|m)\s*$/m.exec(stdout);
  return { rps, requests, ...(p99 ? { p99: toMs(p99[1]!, p99[2]!) } : {}) };
}

/** The autocannon CLI's --json. */
export function parseAutocannon(stdout: string): Omit<Measured, 'cpuUs'> {
  const r = JSON.parse(stdout) as { requests: { average: number; total: number }; latency: { p99: number } };
  return { rps: r.requests.average, requests: r.requests.total, p99: r.latency.p99 };
}

export const autocannonBin = join(dirname(createRequire(import.meta.url).resolve('autocannon/package.json')), 'autocannon.js');

/** The autocannon CLI (`extra`: -w N, -R rate …), pinned to `cpus` when given. */
export async function autocannonPeer(url: string, connections: number, seconds: number, extra: string[], cpus: string | undefined): Promise<Measured> {
  const { stdout, cpuUs, wallS } = await measurePeer([process.execPath, autocannonBin, '--json', '-c', String(connections), '-d', String(seconds), ...extra, url], cpus);
  return { ...parseAutocannon(stdout), cpuUs, wallS };
}

/** wrk -tN (undefined when wrk is not installed). */
export async function wrkPeer(url: string, threads: number, connections: number, seconds: number, cpus: string | undefined): Promise<Measured | undefined> {
  if (!which('wrk')) return undefined;
  const { stdout, cpuUs, wallS } = await measurePeer(['wrk', `-t${threads}`, `-c${connections}`, `-d${seconds}s`, '--latency', url], cpus);
  return { ...parseWrk(stdout), cpuUs, wallS };
}

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/**
 * wrk2 (built in ../shared/tools/wrk2, not in Debian): $HARNESS_WRK2 (a path, or `skip`), else the repository's
 * parent's shared/tools/wrk2/wrk2 (a worktree beside the main checkout has it there too), else ../shared/tools/wrk2/wrk2
 * from the working directory, .devkit/wrk2, or wrk2 on the PATH.
 */
export function wrk2Path(): { path?: string; why: string } {
  const env = process.env.HARNESS_WRK2;
  if (env === 'skip') return { why: 'HARNESS_WRK2=skip' };
  if (env) return existsSync(env) ? { path: env, why: '' } : { why: `HARNESS_WRK2=${env} does not exist` };
  for (const candidate of [join(repoRoot, '..', 'shared/tools/wrk2/wrk2'), '../shared/tools/wrk2/wrk2', '.devkit/wrk2']) if (existsSync(candidate)) return { path: candidate, why: '' };
  const onPath = which('wrk2');
  return onPath ? { path: onPath, why: '' } : { why: 'wrk2 not found (HARNESS_WRK2, ../shared/tools/wrk2/wrk2, .devkit/wrk2, PATH)' };
}

function cpuModel(): string {
  try {
    const info = readFileSync('/proc/cpuinfo', 'utf8');
    return /^(?:model name|Model|Hardware|cpu model)\s*:\s*(.+)$/m.exec(info)?.[1]?.trim() ?? 'unknown CPU';
  } catch {
    return 'unknown CPU (no /proc/cpuinfo)';
  }
}

const load = (): string => loadavg().map((x) => x.toFixed(2)).join(' ');

/** The first line a command prints (stdout or stderr: nginx -v writes to stderr). */
function version(command: string[]): string {
  const r = spawnSync(command[0]!, command.slice(1), { encoding: 'utf8', timeout: 5000 });
  return `${r.stdout ?? ''}${r.stderr ?? ''}`.split('\n')[0]!.trim();
}

/** The machine, printed once at the start of every bench run, before anything runs. */
export function printMachine(): void {
  out(`machine: ${cpuModel()}, ${availableParallelism()} cores, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, Linux ${release()}, node ${process.version}`);
  out(`load average at start (1/5/15 min): ${load()}`);
}

/** The peers' versions and paths (after any apt-get install). */
export function printPeers(): void {
  const autocannonVersion = (createRequire(import.meta.url)('autocannon/package.json') as { version: string }).version;
  const wrk2 = wrk2Path();
  const nginx = which('nginx') ?? (existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : undefined);
  out(
    `peers: autocannon ${autocannonVersion}; wrk ${which('wrk') ? version(['wrk', '-v']).replace(/^wrk\s*/, '') || 'installed' : 'not installed'}; ` +
      `wrk2 ${wrk2.path ?? `— ${wrk2.why}`}; nginx ${nginx ? version([nginx, '-v']).replace(/^nginx version:\s*/, '') : 'not installed'}`,
  );
}

export function printLoadAtEnd(): void {
  out(`\nload average at the end (1/5/15 min): ${load()}`);
}
