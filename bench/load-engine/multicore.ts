/**
 * bench/load-engine, multi-core and warm-start sections (run.ts calls them):
 *
 *   workers    closed model: harness --workers N vs `autocannon -w N` vs `wrk -tN`, 50·N connections, N = 1, 2
 *              (and 4 with ≥ 8 cores); open model: the highest sustainable rate (≤ 1 % dropped, ≥ 99 % of the
 *              arrivals answered) with 1 and N workers, from a rate ladder, CPU per request at each step; then
 *              one round of onecore
 *   onecore    --workers 2 vs --workers 1, each a fresh process (scenario-child.mjs: the build by default) pinned
 *              to the same one core: open model at --rate, 50 VUs; closed model, 50 VUs; rounds interleaved. What
 *              the multi-worker path costs per request (goal ≤ 1.1×); open model, also W=1 at half the rate, 25
 *              VUs (each worker's share alone), which W=2 is compared with too
 *   spacing    5k req/s with 1 and N workers: arrivals per 50 ms bucket, timed by a separate target process
 *              (goal: every bucket within ±10 % of the expected rate / 20)
 *   warmstart  10k req/s with maxVUs 50 and 1000: first-second p99 vs the steady seconds' p99, and arrivals
 *              dropped in the first second, with the warm start and without it (warmUp: false); each run in a
 *              fresh process (scenario-child.mjs, the build by default; --from src: the sources under
 *              tsx), since a process that already ran load starts hot
 *
 * Core layout: nginx is pinned to the first cores, each generator (harness, autocannon, wrk) to the next N with
 * taskset, when the machine has nginx + N cores; otherwise that run is unpinned and says so (it shares cores with
 * nginx, so its numbers are the pair's, not the generator's alone). CPU per request beside every run: measure.ts.
 */
import { execFile, spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { ScenarioResult } from '../../src/load/result.ts';
import { autocannonPeer, cpuPerRequest, cpuRatio, formatRatio, formatRun, measureHarness, measureHarnessChild, median, out, runHarnessChild, scenario, times, tryPeer, wrkPeer, type Measured } from './measure.ts';
import { which } from './nginx.ts';

const run = promisify(execFile);

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

/** Pins this process's threads (worker threads started later inherit it); undefined: all cores. */
export async function pinSelf(cpus: string | undefined, layout: Layout): Promise<void> {
  if (!which('taskset')) return;
  await run('taskset', ['-a', '-p', '-c', cpus ?? `0-${layout.cores - 1}`, String(process.pid)]);
}

const where = (cpus: string | undefined): string => (cpus ? `on CPU ${cpus}` : 'NOT PINNED (shares the cores with nginx)');

export async function workersSection(url: string, options: { layout: Layout; ns: number[]; seconds: number; rates: number[]; rate: number; from: 'dist' | 'src' }): Promise<void> {
  const { layout, seconds } = options;
  out(`\n== workers, closed model: 50·N connections, ${seconds} s, nginx constant JSON ==`);
  for (const n of options.ns) {
    const cpus = layout.generator(n);
    const connections = 50 * n;
    out(`-- N = ${n}, ${connections} connections, every generator ${where(cpus)}`);
    await pinSelf(cpus, layout);
    let harness: Measured;
    try {
      ({ measured: harness } = await measureHarness({ scenario: scenario({ name: 'closed', executor: 'constant-vus', vus: connections, duration: `${seconds}s` }), baseUrl: url, workers: n }));
    } finally {
      await pinSelf(undefined, layout);
    }
    out(formatRun(`harness --workers ${n}`, harness));
    const a = await tryPeer(() => autocannonPeer(url, connections, seconds, ['-w', String(n)], cpus));
    out(formatRun(`autocannon -w ${n} -c${connections}`, a.measured, a.missing));
    const w = await tryPeer(() => wrkPeer(url, n, connections, seconds, cpus));
    out(formatRun(`wrk -t${n} -c${connections}`, w.measured, w.missing));
    out(formatRatio('harness', harness, 'autocannon', a.measured));
    out(formatRatio('harness', harness, 'wrk', w.measured));
  }

  out(`\n== workers, open model: highest sustainable rate (≤ 1 % dropped, ≥ 99 % answered), ${seconds} s per step ==`);
  for (const n of [1, ...options.ns.filter((x) => x > 1)]) {
    const cpus = layout.generator(n);
    out(`-- ${n} worker(s) ${where(cpus)}, maxVUs ${200 * n}`);
    await pinSelf(cpus, layout);
    let best = 0;
    try {
      for (const rate of options.rates) {
        const maxVUs = Math.max(n, 200 * n);
        const { measured, outcome } = await measureHarness({
          scenario: scenario({ name: 'open', executor: 'constant-arrival-rate', rate, duration: `${seconds}s`, preAllocatedVUs: maxVUs, maxVUs }),
          baseUrl: url,
          workers: n,
        });
        const { result } = outcome;
        const arrivals = rate * seconds;
        const ok = result.dropped <= arrivals * 0.01 && result.requests >= arrivals * 0.99 && Object.keys(result.errors).length === 0;
        out(formatRun(`${String(rate).padStart(6)} req/s: ${ok ? 'ok' : 'no'}`, measured));
        if (!ok) break;
        best = rate;
      }
    } finally {
      await pinSelf(undefined, layout);
    }
    out(`workers ${n} ${where(cpus)}: sustainable ${best ? `${best} req/s` : `below ${options.rates[0]} req/s`}${best === options.rates.at(-1) ? ' (top of the ladder: ceiling not reached)' : ''}`);
  }

  await oneCoreSection(url, { layout, seconds, rate: options.rate, rounds: 1, from: options.from });
}

/**
 * What the multi-worker path costs per request, with the cores held equal: 1 and 2 workers, each run a fresh
 * process pinned (all its threads) to the same one generator core, running the build by default (measure.ts
 * measureHarnessChild: in one long-lived process W = 1 would run on a main thread already optimised by earlier
 * runs, against cold worker threads). Goal (issue 21): W = 2 at most 1.1× W = 1. The warm-up is on, as in a
 * default run (without it each worker's isolate compiles the hot path in the measured seconds, once per worker);
 * the whole-run figure includes it and the worker threads' start, the steady one (seconds 1..end) does not.
 * Rounds interleave W = 1 and W = 2, and the ratios' median is printed.
 */
export async function oneCoreSection(url: string, options: { layout: Layout; seconds: number; rate: number; rounds: number; from: 'dist' | 'src' }): Promise<void> {
  const { layout, seconds, rate, rounds, from } = options;
  const cpus = layout.generator(1);
  await buildIfNeeded(from);
  out(`\n== workers on one core: --workers 2 vs --workers 1, each a fresh process ${where(cpus)} (${from === 'dist' ? 'the build, plain node' : 'the sources, under tsx'}), ${seconds} s each, ${rounds} round(s), warm-up on (the default) (goal: W=2 ≤ 1.1× W=1 CPU per request) ==`);
  out('(the whole-run figure includes the warm-up and the worker threads\' start; the steady one is seconds 1..end)');
  const cases: Array<[string, Record<string, unknown>]> = [
    [`open model, ${rate} req/s, 50 VUs`, { name: 'open', executor: 'constant-arrival-rate', rate, duration: `${seconds}s`, preAllocatedVUs: 50, maxVUs: 50 }],
    ['closed model, 50 VUs', { name: 'closed', executor: 'constant-vus', vus: 50, duration: `${seconds}s` }],
  ];
  for (const [label, data] of cases) {
    out(`-- ${label}`);
    // Open model: also one worker at the rate each of the two paces (half), 25 VUs: what one pacer costs at that rate
    // alone. W=2 against it is what the worker machinery adds; against W=1 at the full rate, that plus how a pacer's
    // CPU per request grows as its own rate falls (docs/performance.md).
    const half = data.executor === 'constant-arrival-rate' ? { ...data, rate: rate / 2, preAllocatedVUs: 25, maxVUs: 25 } : undefined;
    const whole: Array<number | undefined> = [];
    const steady: Array<number | undefined> = [];
    const machinery: Array<number | undefined> = [];
    for (let round = 1; round <= rounds; round++) {
      const got: Measured[] = [];
      for (const workers of [1, 2]) {
        const measured = await measureHarnessChild({ from, url, workers, scenario: data, cpus });
        got.push(measured);
        out(formatRun(`round ${round}: harness --workers ${workers}`, measured));
      }
      const [one, two] = got as [Measured, Measured];
      whole.push(cpuRatio(two, one));
      steady.push(cpuRatio(two.steady, one.steady));
      out(`round ${round}: W=2 / W=1 CPU per request ${times(whole.at(-1))} (steady seconds: ${times(steady.at(-1))}), throughput ${times(two.rps / one.rps)}`);
      if (half) {
        const alone = await measureHarnessChild({ from, url, workers: 1, scenario: half, cpus });
        out(formatRun(`round ${round}: harness --workers 1 at ${rate / 2} req/s, 25 VUs (one pacer at each worker's rate)`, alone));
        machinery.push(cpuRatio(two.steady, alone.steady));
        out(`round ${round}: W=2 / (W=1 at ${rate / 2} req/s), steady seconds: ${times(machinery.at(-1))}`);
      }
    }
    if (rounds > 1) out(`W=2 / W=1, median of ${rounds} rounds: CPU per request ${times(median(whole))} (steady seconds: ${times(median(steady))})`);
    if (half && rounds > 1) out(`W=2 / (W=1 at ${rate / 2} req/s), median of ${rounds} rounds, steady seconds: ${times(median(machinery))}`);
  }
}

/** The build-running cases need dist/ as it is now: built once per bench run. */
let built = false;
export async function buildIfNeeded(from: 'dist' | 'src'): Promise<void> {
  if (from !== 'dist' || built) return;
  out('\nbuilding dist/ (npm run build): the cases below run the build, as an installed harness does …');
  await run('npm', ['run', 'build'], { maxBuffer: 1 << 24 });
  built = true;
}

interface WarmCase {
  firstP99: number;
  steadyP99: number;
  firstDropped: number;
  dropped: number;
  warmUp?: { requests: number; durationMs: number };
  generatorBound: boolean;
  /** The child's CPU around its runScenario call (µs, all its threads; not its start) and what it paid for. */
  rps: number;
  cpuUs: number;
  requests: number;
  p99: number;
}

/**
 * Each case in a fresh process (scenario-child.mjs), pinned like the other one-thread generators, on one worker.
 * `from`: the build (dist/, what an installed harness runs) or the sources under tsx (a checkout's `npm start`),
 * whose module loader runs on a thread of its own: a second V8 heap on the pinned core, whose collections land in
 * measured seconds (about 8 s after start, in our runs).
 */
async function warmCase(from: 'dist' | 'src', url: string, rate: number, seconds: number, maxVUs: number, warmUp: boolean, cpus: string | undefined): Promise<WarmCase> {
  const scenario = { name: 'warm', executor: 'constant-arrival-rate', rate, duration: `${seconds}s`, preAllocatedVUs: maxVUs, maxVUs, warmUp };
  const { result, cpuUs, firstDropped } = await runHarnessChild({ from, url, workers: 1, scenario, cpus });
  return {
    firstP99: result.timeline[0]?.p99 ?? 0,
    steadyP99: median(result.timeline.slice(1, seconds).map((p) => p.p99)) ?? 0,
    firstDropped,
    dropped: result.dropped,
    ...(result.warmUp ? { warmUp: result.warmUp } : {}),
    generatorBound: result.generatorBound !== undefined,
    rps: result.rps,
    cpuUs,
    requests: result.requests + (result.warmUp?.requests ?? 0),
    p99: result.latency.p99,
  };
}

export async function warmStartSection(url: string, options: { layout: Layout; seconds: number; rate: number; repeats: number; from: 'dist' | 'src' }): Promise<void> {
  const { seconds, rate, from } = options;
  await buildIfNeeded(from);
  out(`\n== warm start: ${rate} req/s for ${seconds} s, nginx constant JSON, each run a fresh process (${from === 'dist' ? 'the build, plain node' : 'the sources, under tsx'}); first second vs the steady seconds ==`);
  out('maxVUs  warm-up               first-second p99  steady p99 (median of seconds 2..n)  ratio  first-second dropped  total dropped    req/s  µs CPU/req  s CPU  p99 ms');
  const cpus = options.layout.generator(1);
  for (const maxVUs of [50, 1000]) {
    for (let i = 0; i < options.repeats; i++) {
      for (const warmUp of [true, false]) {
        const c = await warmCase(from, url, rate, seconds, maxVUs, warmUp, cpus);
        const label = warmUp ? `on (${c.warmUp?.requests ?? 0} req, ${c.warmUp?.durationMs.toFixed(0) ?? 0} ms)` : 'off';
        const ratio = c.steadyP99 > 0 ? (c.firstP99 / c.steadyP99).toFixed(2) : 'n/a';
        out(`${String(maxVUs).padStart(6)}  ${label.padEnd(20)}  ${c.firstP99.toFixed(2).padStart(16)}  ${c.steadyP99.toFixed(2).padStart(35)}  ${ratio.padStart(5)}  ${String(c.firstDropped).padStart(20)}  ${String(c.dropped).padStart(13)}  ${c.rps.toFixed(0).padStart(7)}  ${(cpuPerRequest(c)?.toFixed(1) ?? '—').padStart(10)}  ${(c.cpuUs / 1e6).toFixed(2).padStart(5)}  ${c.p99.toFixed(2).padStart(6)}${c.generatorBound ? '   generator-bound' : ''}`);
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
    out('workers  expected  min  max  worst deviation  worst bucket  dropped    req/s  µs CPU/req  s CPU  p99 ms');
    for (const n of [1, ...options.ns.filter((x) => x > 1)]) {
      await fetch(`${url}/__times`).then((r) => r.text());
      await pinSelf(options.layout.generator(n), options.layout);
      let measured: Measured;
      let result: ScenarioResult;
      try {
        ({ measured, outcome: { result } } = await measureHarness({
          scenario: scenario({ name: 'spacing', executor: 'constant-arrival-rate', rate, duration: `${seconds}s`, preAllocatedVUs: 200, maxVUs: 200 }),
          baseUrl: url,
          workers: n,
        }));
      } finally {
        await pinSelf(undefined, options.layout);
      }
      const stamps = (await fetch(`${url}/__times`).then((r) => r.json())) as number[];
      // The warm-up's requests all arrived before t0: the run's are the last result.requests of them.
      const arrivals = stamps.slice(stamps.length - result.requests).sort((a, b) => a - b);
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
      out(`${String(n).padStart(7)}  ${String(expected).padStart(8)}  ${String(Math.min(...full)).padStart(3)}  ${String(Math.max(...full)).padStart(3)}  ${`${(worst * 100).toFixed(1)} %`.padStart(15)}  ${`${at} ms`.padStart(13)}  ${String(result.dropped).padStart(7)}  ${measured.rps.toFixed(0).padStart(7)}  ${(cpuPerRequest(measured)?.toFixed(1) ?? '—').padStart(10)}  ${(measured.cpuUs / 1e6).toFixed(2).padStart(5)}  ${result.latency.p99.toFixed(2).padStart(6)}${result.generatorBound ? '   generator-bound' : ''}`);
    }
  } finally {
    target.kill('SIGTERM');
  }
}
