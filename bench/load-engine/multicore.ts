/**
 * bench/load-engine, multi-core and warm-start sections (run.ts calls them):
 *
 *   workers    closed model: harness --workers N vs `autocannon -w N` vs `wrk -tN`, 50·N connections, N = 1, 2
 *              (and 4 with ≥ 8 cores); open model: the highest sustainable rate (≤ 1 % dropped, ≥ 99 % of the
 *              arrivals answered) with 1 and N workers, from a rate ladder
 *   spacing    5k req/s with 1 and N workers: arrivals per 50 ms bucket, timed by a separate target process
 *              (goal: every bucket within ±10 % of the expected rate / 20)
 *   warmstart  10k req/s with maxVUs 50 and 1000: first-second p99 vs the steady seconds' p99, and arrivals
 *              dropped in the first second, with the warm start and without it (warmUp: false); each run in a
 *              fresh process (warm-start-child.mjs, the build by default; --warm-from src: the sources under
 *              tsx), since a process that already ran load starts hot
 *
 * Core layout: nginx is pinned to the first cores, each generator (harness, autocannon, wrk) to the next N with
 * taskset, when the machine has nginx + N cores; otherwise that run is unpinned and says so (it shares cores with
 * nginx, so its numbers are the pair's, not the generator's alone).
 */
import { execFile, spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { defaultConfig } from '../../src/config/defaults.ts';
import { runScenario } from '../../src/load/run-scenario.ts';
import { scenarioFromData } from '../../src/load/scenario/load.ts';
import type { Scenario } from '../../src/load/scenario/types.ts';
import { which } from './nginx.ts';

const run = promisify(execFile);
const api = defaultConfig().api;
const out = (line: string): void => void process.stdout.write(`${line}\n`);

export interface Layout {
  cores: number;
  /** taskset list for nginx, e.g. "0" or "0-3". */
  nginx: string;
  nginxCores: number;
  /** CPU list for a generator with n threads, or undefined when it cannot have cores of its own. */
  generator(n: number): string | undefined;
}

export function coreLayout(): Layout {
  const cores = availableParallelism();
  const nginxCores = cores >= 16 ? 4 : cores >= 8 ? 2 : 1;
  const pin = which('taskset') !== undefined;
  return {
    cores,
    nginx: nginxCores === 1 ? '0' : `0-${nginxCores - 1}`,
    nginxCores,
    generator: (n) => (pin && nginxCores + n <= cores ? (n === 1 ? String(nginxCores) : `${nginxCores}-${nginxCores + n - 1}`) : undefined),
  };
}

export function printLayout(layout: Layout, ns: number[]): void {
  out(`core layout: ${layout.cores} cores; nginx (${layout.nginxCores} worker process(es)) on CPU ${layout.nginx}`);
  for (const n of ns) out(`  generator with ${n} thread(s): ${layout.generator(n) ? `CPU ${layout.generator(n)}` : 'NOT PINNED (too few cores: shares them with nginx)'}`);
}

function scenario(data: Record<string, unknown>): Scenario {
  return scenarioFromData({ credential: 'none', requests: [{ name: 'get', method: 'GET', path: '/' }], ...data });
}

/** Pins this process's threads (worker threads started later inherit it); undefined: all cores. */
async function pinSelf(cpus: string | undefined, layout: Layout): Promise<void> {
  if (!which('taskset')) return;
  await run('taskset', ['-a', '-p', '-c', cpus ?? `0-${layout.cores - 1}`, String(process.pid)]);
}

function pinned(cpus: string | undefined, command: string[]): string[] {
  return cpus ? ['taskset', '-c', cpus, ...command] : command;
}

async function autocannonW(bin: string, url: string, n: number, connections: number, seconds: number, cpus: string | undefined): Promise<number> {
  const command = pinned(cpus, [process.execPath, bin, '--json', '-w', String(n), '-c', String(connections), '-d', String(seconds), url]);
  const { stdout } = await run(command[0] as string, command.slice(1), { maxBuffer: 64 << 20 });
  return (JSON.parse(stdout) as { requests: { average: number } }).requests.average;
}

async function wrkT(url: string, n: number, connections: number, seconds: number, cpus: string | undefined): Promise<number | undefined> {
  if (!which('wrk')) return undefined;
  const command = pinned(cpus, ['wrk', `-t${n}`, `-c${connections}`, `-d${seconds}s`, url]);
  const { stdout } = await run(command[0] as string, command.slice(1));
  return Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1] ?? 0);
}

export async function workersSection(url: string, options: { layout: Layout; ns: number[]; seconds: number; rates: number[]; autocannonBin: string }): Promise<void> {
  const { layout, seconds } = options;
  out(`\n== workers, closed model: 50·N connections, ${seconds} s, nginx constant JSON ==`);
  out('N  connections  harness --workers N  autocannon -w N  wrk -tN   harness/autocannon  harness/wrk');
  for (const n of options.ns) {
    const cpus = layout.generator(n);
    const connections = 50 * n;
    await pinSelf(cpus, layout);
    const { result } = await runScenario({ scenario: scenario({ name: 'closed', executor: 'constant-vus', vus: connections, duration: `${seconds}s` }), baseUrl: url, api, credentials: {}, workers: n });
    await pinSelf(undefined, layout);
    const a = await autocannonW(options.autocannonBin, url, n, connections, seconds, cpus);
    const w = await wrkT(url, n, connections, seconds, cpus);
    out(`${n}  ${String(connections).padStart(11)}  ${result.rps.toFixed(0).padStart(19)}  ${a.toFixed(0).padStart(15)}  ${(w?.toFixed(0) ?? 'n/a').padStart(7)}   ${(result.rps / a).toFixed(2).padStart(17)}×  ${w ? `${(result.rps / w).toFixed(2)}×` : 'n/a'}${cpus ? '' : '   (unpinned)'}${result.generatorBound ? '   generator-bound' : ''}`);
  }

  out(`\n== workers, open model: highest sustainable rate (≤ 1 % dropped, ≥ 99 % answered), ${seconds} s per step ==`);
  for (const n of [1, ...options.ns.filter((x) => x > 1)]) {
    const cpus = layout.generator(n);
    await pinSelf(cpus, layout);
    let best = 0;
    const tried: string[] = [];
    for (const rate of options.rates) {
      const maxVUs = Math.max(n, 200 * n);
      const { result } = await runScenario({
        scenario: scenario({ name: 'open', executor: 'constant-arrival-rate', rate, duration: `${seconds}s`, preAllocatedVUs: maxVUs, maxVUs }),
        baseUrl: url,
        api,
        credentials: {},
        workers: n,
      });
      const arrivals = rate * seconds;
      const ok = result.dropped <= arrivals * 0.01 && result.requests >= arrivals * 0.99 && Object.keys(result.errors).length === 0;
      tried.push(`${rate}: ${ok ? 'ok' : 'no'} (dropped ${result.dropped}, p99 ${result.latency.p99} ms${result.generatorBound ? ', generator-bound' : ''})`);
      if (!ok) break;
      best = rate;
    }
    await pinSelf(undefined, layout);
    out(`workers ${n}${cpus ? ` on CPU ${cpus}` : ' (unpinned)'}: sustainable ${best ? `${best} req/s` : `below ${options.rates[0]} req/s`}${best === options.rates.at(-1) ? ' (top of the ladder: ceiling not reached)' : ''}`);
    out(`  ${tried.join('; ')}`);
  }
}

interface WarmCase {
  firstP99: number;
  steadyP99: number;
  firstDropped: number;
  dropped: number;
  warmUp?: { requests: number; durationMs: number };
  generatorBound: boolean;
}

/**
 * Each case in a fresh process (warm-start-child.mjs), pinned like the other one-thread generators. `from`: the
 * build (dist/, what an installed harness runs) or the sources under tsx (a checkout's `npm start`), whose module
 * loader runs on a thread of its own: a second V8 heap on the pinned core, whose collections land in measured
 * seconds (about 8 s after start, in our runs).
 */
async function warmCase(from: 'dist' | 'src', url: string, rate: number, seconds: number, maxVUs: number, warmUp: boolean, cpus: string | undefined): Promise<WarmCase> {
  const child = fileURLToPath(new URL('./warm-start-child.mjs', import.meta.url));
  const node = from === 'src' ? [process.execPath, '--import', 'tsx'] : [process.execPath];
  const command = pinned(cpus, [...node, child, from, url, String(rate), String(seconds), String(maxVUs), warmUp ? 'on' : 'off']);
  const { stdout } = await run(command[0] as string, command.slice(1), { maxBuffer: 1 << 20 });
  return JSON.parse(stdout.trim().split('\n').at(-1) as string) as WarmCase;
}

export async function warmStartSection(url: string, options: { layout: Layout; seconds: number; rate: number; repeats: number; from: 'dist' | 'src' }): Promise<void> {
  const { seconds, rate, from } = options;
  if (from === 'dist') {
    out('\nbuilding dist/ (npm run build): the warm-start cases run the build, as an installed harness does …');
    await run('npm', ['run', 'build'], { maxBuffer: 1 << 24 });
  }
  out(`\n== warm start: ${rate} req/s for ${seconds} s, nginx constant JSON, each run a fresh process (${from === 'dist' ? 'the build, plain node' : 'the sources, under tsx'}); first second vs the steady seconds ==`);
  out('maxVUs  warm-up               first-second p99  steady p99 (median of seconds 2..n)  ratio  first-second dropped  total dropped');
  const cpus = options.layout.generator(1);
  for (const maxVUs of [50, 1000]) {
    for (let i = 0; i < options.repeats; i++) {
      for (const warmUp of [true, false]) {
        const c = await warmCase(from, url, rate, seconds, maxVUs, warmUp, cpus);
        const label = warmUp ? `on (${c.warmUp?.requests ?? 0} req, ${c.warmUp?.durationMs.toFixed(0) ?? 0} ms)` : 'off';
        const ratio = c.steadyP99 > 0 ? (c.firstP99 / c.steadyP99).toFixed(2) : 'n/a';
        out(`${String(maxVUs).padStart(6)}  ${label.padEnd(20)}  ${c.firstP99.toFixed(2).padStart(16)}  ${c.steadyP99.toFixed(2).padStart(35)}  ${ratio.padStart(5)}  ${String(c.firstDropped).padStart(20)}  ${String(c.dropped).padStart(13)}${c.generatorBound ? '   generator-bound' : ''}`);
      }
    }
  }
}

export async function spacingSection(options: { layout: Layout; ns: number[]; seconds: number; rate: number }): Promise<void> {
  const { seconds, rate } = options;
  out(`\n== spacing: ${rate} req/s for ${seconds} s, arrivals per 50 ms timed by the target (own process), warm start on ==`);
  const target = spawn(process.execPath, [fileURLToPath(new URL('./count-target.mjs', import.meta.url))], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve) => target.stdout!.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim()))));
  const url = `http://127.0.0.1:${port}`;
  try {
    out('workers  expected  min  max  worst deviation  worst bucket  dropped');
    for (const n of [1, ...options.ns.filter((x) => x > 1)]) {
      await fetch(`${url}/__times`).then((r) => r.text());
      await pinSelf(options.layout.generator(n), options.layout);
      const { result } = await runScenario({
        scenario: scenario({ name: 'spacing', executor: 'constant-arrival-rate', rate, duration: `${seconds}s`, preAllocatedVUs: 200, maxVUs: 200 }),
        baseUrl: url,
        api,
        credentials: {},
        workers: n,
      });
      await pinSelf(undefined, options.layout);
      const times = (await fetch(`${url}/__times`).then((r) => r.json())) as number[];
      // The warm-up's requests all arrived before t0: the run's are the last result.requests of them.
      const arrivals = times.slice(times.length - result.requests).sort((a, b) => a - b);
      const first = arrivals[0] ?? 0;
      const counts = new Array<number>(Math.ceil((seconds * 1000) / 50)).fill(0);
      for (const t of arrivals) {
        const i = Math.floor((t - first) / 50);
        if (i < counts.length) counts[i]!++;
      }
      // The last bucket may be cut by the run's end; the rest should each hold rate / 20 arrivals.
      const full = counts.slice(0, -1);
      const expected = rate / 20;
      const deviations = full.map((b) => Math.abs(b - expected) / expected);
      const worst = Math.max(...deviations);
      const at = deviations.indexOf(worst) * 50;
      out(`${String(n).padStart(7)}  ${String(expected).padStart(8)}  ${String(Math.min(...full)).padStart(3)}  ${String(Math.max(...full)).padStart(3)}  ${`${(worst * 100).toFixed(1)} %`.padStart(15)}  ${`${at} ms`.padStart(13)}  ${String(result.dropped).padStart(7)}${result.generatorBound ? '   generator-bound' : ''}`);
    }
  } finally {
    target.kill('SIGTERM');
  }
}
