/**
 * bench/load-engine: the harness's load engines against peers in the same run, on a fixed-cost target
 * (nginx from Debian, started here with its own config in a temp dir; installed with apt-get if missing).
 *
 * Every run first prints the machine (CPU model, cores, memory, kernel, Node, load average), the peers' versions and
 * the core layout; it ends with the load average again. Every line for a generator run shows requests/s, CPU µs per
 * request, total CPU s, and p99 / dropped where known (measure.ts: how CPU is measured), with the harness / peer
 * ratios of CPU per request where a peer ran in the same section.
 *
 *   1. closed   harness closed model (autocannon API + per-name HDR) vs the autocannon CLI vs wrk:
 *               50 connections, 10 s, 3 rounds; median requests/s, median CPU per request and the ratios
 *   2. pacing   open model at 1k, 5k and 20k req/s: achieved vs requested, arrivals per 50 ms bucket,
 *               start lag against the intended times, dropped, CPU per request
 *   3. stall    a Node target that blocks 200 ms every 2 s, at 1k req/s: harness p99 (1 and 2 workers) vs the analytic ≈ 180 ms
 *               (10 % of arrivals fall in a stall and wait U(0, 200) ms: p99 = 200 − 0.01 × 2000), and
 *               autocannon -R beside it
 *   4. rss      RSS of this process over 60 s at 20k req/s (open model)
 *   5. workers  --workers N vs autocannon -w N and wrk -tN (closed), sustainable open-model rate with 1 and N
 *               workers (multicore.ts; taskset pinning where the cores allow), then one round of `onecore`
 *  5b. onecore  --workers 2 vs --workers 1, each a fresh process running the build (--from), both pinned to the
 *               same one core, open model at --rate with 50 VUs and closed model with 50 VUs, --rounds rounds
 *               interleaved: the multi-worker path's CPU per request (goal ≤ 1.1× one worker's), the median ratio;
 *               open model, also one worker at half the rate with 25 VUs (each worker's share on its own)
 *   6. spacing  arrivals per 50 ms at 5k req/s with 1 and N workers, timed by a separate target process
 *   8. cpu      CPU µs per request beside throughput, each generator pinned to the same core (cpu.ts): the open
 *               model at --rate (default 10 000 req/s) vs wrk2 -R, the closed model vs autocannon and wrk; --rounds
 *               rounds, the generators back to back in each, and the median of the rounds' ratios
 *   9. ceiling  the highest open-model rate one core sustains (±1 % achieved, ≤ 1 % dropped), the harness's and
 *               wrk2's, up the ladder 10k…80k req/s, each pinned to the same core (cpu.ts; wrk2 20 s a step)
 *  10. merge    the workers' live view: a worker's once-a-second snapshot, the main thread's merge of two (and an hour
 *               into a run), the final merge after 60 s, in ms (merge.ts; no peer, no target)
 *  11. wake     CPU a thread is charged per sleep and wake, by the sleep's length (0.1…10 ms): node's
 *               Atomics.wait and setInterval, python3's time.sleep beside them (wake.ts; no target, not in
 *               the default sections)
 *  12. split    one open-model rate (--rate) split in two on one core, in the steady state (seconds 10..10+S of each
 *               run, --steady-seconds S, 30): harness W=1, W=2, W=1 at half the rate, two harness processes at half
 *               each, W=1 on a worker thread of its own, and wrk2 the same ways; CPU per request from every thread's
 *               scheduler run time, wakes, --rounds rounds (split.ts; about 6 minutes a round; not in the default
 *               sections)
 *   7. warmstart  first-second vs steady p99 at 10k req/s, maxVUs 50 and 1000, warm start on and off; each
 *                case a fresh process running the build (npm run build first; --from src: the sources under tsx)
 *
 * Flags: --only a,b (sections)  --duration S (per run; 10, 3 with --short)  --rounds N (closed, cpu, onecore, split; 3)
 *        --slices 0.05,0.2,0.5 (pacing: the pacer's sleep slices to compare; default the engine's 0.2)
 *        --rss-seconds S (60)  --rate R (cpu, onecore and split, 10000)  --steady-seconds S (split, 30)  --short
 *        --from dist|src (onecore, warmstart: the build, the default, or the sources under tsx; --warm-from still
 *        works).   wrk2: $HARNESS_WRK2 (a path, or skip), else ../shared/tools/wrk2/wrk2 beside the
 *        repository (measure.ts wrk2Path).
 *
 *   npm run bench:load-engine                              # everything
 *   npm run bench:load-engine -- --only pacing,stall --duration 5 --rounds 1 --rss-seconds 20
 *   npm run bench:load-engine -- --only cpu --duration 10 --rate 10000   # CPU per request, every generator on one core
 *   npm run bench:load-engine -- --only workers,warmstart --short     # a 2-core machine in about two minutes
 *   npm run bench:load-engine -- --only onecore --duration 10 --rounds 3   # W=2 vs W=1 on one core, about 3 minutes
 *
 * Prints numbers; records nothing (copy them into docs/performance.md from a quiet machine).
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { encodeRequest } from '../../src/load/engine/h1/request-bytes.ts';
import { H1Sender } from '../../src/load/engine/h1/sender.ts';
import { percentileMs } from '../../src/load/metrics/histogram.ts';
import { Recorder } from '../../src/load/metrics/recorder.ts';
import { arrivalSchedule } from '../../src/load/pacer/arrival-schedule.ts';
import { hrClock, realScheduler } from '../../src/load/pacer/clock.ts';
import { DEFAULT_SLICE_MS, startPacer } from '../../src/load/pacer/pacer.ts';
import { ceilingSection, cpuSection } from './cpu.ts';
import { autocannonPeer, cpuPerRequest, formatRatio, formatRun, measureHarness, median, medianRun, out, printLoadAtEnd, printMachine, printPeers, scenario, times, tryPeer, wrkPeer, type Measured } from './measure.ts';
import { mergeSection } from './merge.ts';
import { coreLayout, oneCoreSection, printLayout, spacingSection, warmStartSection, workersSection } from './multicore.ts';
import { ensureInstalled, startNginx } from './nginx.ts';
import { splitSection } from './split.ts';
import { wakeSection } from './wake.ts';

const args = new Map(process.argv.slice(2).flatMap((arg, i, all) => (arg.startsWith('--') ? [[arg.slice(2), all[i + 1] ?? '']] : [])));
const ONLY = new Set((args.get('only') ?? 'cpu,ceiling,closed,pacing,stall,rss,workers,spacing,warmstart').split(','));
const SHORT = args.has('short');
const DURATION_S = Number(args.get('duration') ?? (SHORT ? 3 : 10));
const ROUNDS = Number(args.get('rounds') ?? 3);
const RSS_S = Number(args.get('rss-seconds') ?? 60);
const RATE = Number(args.get('rate') ?? 10_000);
const STEADY_S = Number(args.get('steady-seconds') ?? 30);
/** The pacing section's sleep slices to compare (PacerOptions.sliceMs; the engine's default first). */
/** What the fresh-process cases (onecore, warmstart) run: the build (default) or the sources under tsx. */
const FROM: 'dist' | 'src' = (args.get('from') ?? args.get('warm-from')) === 'src' ? 'src' : 'dist';
const SLICES = (args.get('slices') ?? String(DEFAULT_SLICE_MS)).split(',').map(Number);
const CONNECTIONS = 50;

async function closedSection(url: string): Promise<void> {
  out(`\n== closed model: ${CONNECTIONS} connections, ${DURATION_S} s, ${ROUNDS} round(s), nginx constant JSON, every generator unpinned ==`);
  const got: Record<'harness' | 'autocannon' | 'wrk', Array<Measured | undefined>> = { harness: [], autocannon: [], wrk: [] };
  for (let round = 1; round <= ROUNDS; round++) {
    out(`-- round ${round}`);
    const { measured: h } = await measureHarness({ scenario: scenario({ name: 'closed', executor: 'constant-vus', vus: CONNECTIONS, duration: `${DURATION_S}s` }), baseUrl: url });
    got.harness.push(h);
    out(formatRun('harness closed model', h));
    const a = await tryPeer(() => autocannonPeer(url, CONNECTIONS, DURATION_S, [], undefined));
    got.autocannon.push(a.measured);
    out(formatRun(`autocannon -c${CONNECTIONS}`, a.measured, a.missing));
    const w = await tryPeer(() => wrkPeer(url, 2, CONNECTIONS, DURATION_S, undefined));
    got.wrk.push(w.measured);
    out(formatRun(`wrk -t2 -c${CONNECTIONS}`, w.measured, w.missing));
  }
  const rps = (runs: Array<Measured | undefined>): number => median(runs.map((m) => m?.rps ?? 0)) ?? 0;
  const [h, a, w] = [rps(got.harness), rps(got.autocannon), rps(got.wrk)];
  out(`median req/s: harness ${h.toFixed(0)}, autocannon ${a.toFixed(0)}, wrk ${w.toFixed(0)}; harness/autocannon ${times(h / a)}, harness/wrk ${times(h / w)}`);
  const medians = { harness: medianRun(got.harness), autocannon: medianRun(got.autocannon), wrk: medianRun(got.wrk) };
  if (ROUNDS > 1) {
    out(`median CPU per request (each generator's round with the median, its own figures):`);
    for (const [name, m] of Object.entries(medians)) out(formatRun(`  ${name}`, m, 'no run'));
  }
  out(formatRatio('harness', medians.harness, 'autocannon', medians.autocannon));
  out(formatRatio('harness', medians.harness, 'wrk', medians.wrk));
}

async function pacingSection(url: string): Promise<void> {
  for (const slice of SLICES) await pacingAt(url, slice);
}

async function pacingAt(url: string, sliceMs: number): Promise<void> {
  out(`\n== open-model pacing: ${DURATION_S} s per rate, nginx constant JSON, sleep slices of ${sliceMs} ms while answers are due ==`);
  out('requested  achieved  ratio   per-50ms: expected   min   max  stddev   lag mean/max ms  dropped  p50/p99 ms   µs CPU/req  s CPU');
  for (const rate of [1000, 5000, 20_000]) {
    // CPU of this process from the sender's creation to its closing (the pacer, the sender, the recorder).
    const cpuBefore = process.cpuUsage();
    const sender = new H1Sender({ origin: url, connections: 400 });
    const request = Buffer.from(encodeRequest('GET', '/', sender.host, {}, undefined));
    const recorder = new Recorder(['get']);
    const buckets = new Array<number>(Math.ceil((DURATION_S * 1000) / 50)).fill(0);
    const pacer = startPacer({
      schedule: arrivalSchedule([{ durationMs: DURATION_S * 1000, from: rate, to: rate }]),
      slots: 400,
      clock: hrClock,
      scheduler: realScheduler,
      sliceMs,
      dropped: (t) => recorder.recordDropped(t),
      start: (intended, done) => {
        const startedAt = hrClock.now() - pacer.t0;
        buckets[Math.min(buckets.length - 1, Math.floor(startedAt / 50))]!++;
        sender.send(request, false, 10_000, (o) => {
          const at = hrClock.now() - pacer.t0;
          if (o.status) recorder.record(0, o.status, true, at - intended, at);
          else recorder.recordError(0, o.error ?? 'error', at);
          done();
        });
      },
    });
    const stats = await pacer.finished;
    await pacer.drained();
    sender.close();
    const cpu = process.cpuUsage(cpuBefore);
    const measured: Measured = { rps: stats.started / DURATION_S, requests: recorder.counts().requests, cpuUs: cpu.user + cpu.system };
    const expected = rate * 0.05;
    const full = buckets.slice(0, -1);
    const mean = full.reduce((a, b) => a + b, 0) / full.length;
    const sd = Math.sqrt(full.reduce((a, b) => a + (b - mean) ** 2, 0) / full.length);
    const achieved = stats.started / DURATION_S;
    out(
      `${String(rate).padStart(9)}  ${achieved.toFixed(0).padStart(8)}  ${(achieved / rate).toFixed(3)}   ${expected.toFixed(0).padStart(17)}  ${String(Math.min(...full)).padStart(4)}  ${String(Math.max(...full)).padStart(4)}  ${sd.toFixed(1).padStart(6)}   ${stats.meanLagMs.toFixed(2)}/${stats.maxLagMs.toFixed(1)}`.padEnd(88) +
        `${String(stats.dropped).padStart(7)}  ${`${percentileMs(recorder.histogram(), 50).toFixed(3)}/${percentileMs(recorder.histogram(), 99).toFixed(2)}`.padStart(11)}  ${(cpuPerRequest(measured)?.toFixed(1) ?? '—').padStart(10)}  ${(measured.cpuUs / 1e6).toFixed(2).padStart(5)}`,
    );
  }
}

async function stallSection(): Promise<void> {
  out(`\n== stall: target blocks 200 ms every 2 s, 1000 req/s for ${DURATION_S} s ==`);
  const target = spawn(process.execPath, [fileURLToPath(new URL('./stall-target.mjs', import.meta.url))], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve) => target.stdout!.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim()))));
  const url = `http://127.0.0.1:${port}`;
  try {
    out(`analytic p99 ≈ 180 ms; generators and the target unpinned`);
    const harness: Measured[] = [];
    for (const workers of [1, 2]) {
      const { measured, outcome } = await measureHarness({
        scenario: scenario({ name: 'stall', executor: 'constant-arrival-rate', rate: 1000, duration: `${DURATION_S}s`, preAllocatedVUs: 400, maxVUs: 400 }),
        baseUrl: url,
        workers,
      });
      harness.push(measured);
      const { latency } = outcome.result;
      out(formatRun(`harness open model, ${workers} worker(s)`, measured) + `  (p50 ${latency.p50} ms, p99.9 ${latency.p999} ms, max ${latency.max} ms)`);
    }
    const ac = await tryPeer(() => autocannonPeer(url, CONNECTIONS, DURATION_S, ['-R', '1000'], undefined));
    out(formatRun(`autocannon -c${CONNECTIONS} -R 1000`, ac.measured, ac.missing));
    out(formatRatio('harness (1 worker)', harness[0], 'autocannon -R', ac.measured));
    out(formatRatio('harness (2 workers)', harness[1], 'harness (1 worker)', harness[0]));
  } finally {
    target.kill('SIGTERM');
  }
}

async function rssSection(url: string): Promise<void> {
  out(`\n== RSS over ${RSS_S} s at 20k req/s (open model, this process) ==`);
  const samples: number[] = [];
  const timer = setInterval(() => samples.push(process.memoryUsage().rss / 2 ** 20), 1000);
  let measured: Measured;
  try {
    ({ measured } = await measureHarness({
      scenario: scenario({ name: 'rss', executor: 'constant-arrival-rate', rate: 20_000, duration: `${RSS_S}s`, preAllocatedVUs: 400, maxVUs: 400 }),
      baseUrl: url,
    }));
  } finally {
    clearInterval(timer);
  }
  const at = (i: number): string => (samples[Math.min(samples.length - 1, i)] ?? 0).toFixed(0);
  out(formatRun('harness open model, 20k req/s', measured));
  // The goal is stated between second 10 (warm) and the end: at most 200 MiB, growing by at most 10 %.
  const warm = Number(at(9));
  const end = Number(at(samples.length - 1));
  out(`RSS MiB: at 10 s ${at(9)}, at ${Math.round(RSS_S / 2)} s ${at(Math.round(RSS_S / 2) - 1)}, at the end ${at(samples.length - 1)}, peak ${Math.max(...samples).toFixed(0)}; growth 10 s → end ${(((end - warm) / warm) * 100).toFixed(1)} % (goal ≤ 200 MiB, ≤ 10 %)`);
}

async function main(): Promise<void> {
  out(`bench/load-engine — sections: ${[...ONLY].join(', ')}; other load on this machine skews every number: compare within one run`);
  printMachine();
  const needsNginx = ['closed', 'pacing', 'rss', 'workers', 'onecore', 'split', 'warmstart', 'cpu', 'ceiling'].some((s) => ONLY.has(s));
  ensureInstalled({ ...(needsNginx ? { nginx: 'nginx' } : {}), ...(['closed', 'workers', 'cpu'].some((s) => ONLY.has(s)) ? { wrk: 'wrk' } : {}) });
  printPeers();
  const layout = coreLayout();
  const ns = [1, 2, ...(layout.cores >= 8 ? [4] : [])];
  printLayout(layout, ns);
  out('CPU: user + system, all threads of the generator process (bench/load-engine/measure.ts); per request: over the requests it sent (the harness: with its warm-up\'s); steady: seconds 1..end of a harness run only');
  const nginx = needsNginx ? await startNginx({ workers: layout.nginxCores, cpus: layout.nginx }) : undefined;
  try {
    if (ONLY.has('merge')) mergeSection();
    if (ONLY.has('wake')) await wakeSection({ layout });
    if (nginx && ONLY.has('cpu')) await cpuSection(nginx.url, { layout, seconds: DURATION_S, rate: RATE, rounds: ROUNDS });
    if (nginx && ONLY.has('ceiling')) await ceilingSection(nginx.url, { layout, seconds: DURATION_S, rates: [10_000, 15_000, 20_000, 25_000, 30_000, 35_000, 40_000, 50_000, 60_000, 80_000] });
    if (nginx && ONLY.has('closed')) await closedSection(nginx.url);
    if (nginx && ONLY.has('pacing')) await pacingSection(nginx.url);
    if (ONLY.has('stall')) await stallSection();
    if (nginx && ONLY.has('rss')) await rssSection(nginx.url);
    if (nginx && ONLY.has('workers')) {
      const rates = SHORT ? [2000, 5000, 10_000, 20_000] : [2000, 5000, 10_000, 15_000, 20_000, 30_000, 40_000, 60_000, 80_000];
      await workersSection(nginx.url, { layout, ns, seconds: DURATION_S, rates, rate: RATE, from: FROM });
    }
    if (nginx && ONLY.has('onecore')) await oneCoreSection(nginx.url, { layout, seconds: DURATION_S, rate: RATE, rounds: ROUNDS, from: FROM });
    if (nginx && ONLY.has('split')) await splitSection(nginx.url, { layout, rate: RATE, windowS: STEADY_S, rounds: ROUNDS });
    if (ONLY.has('spacing')) await spacingSection({ layout, ns, seconds: DURATION_S, rate: 5000 });
    if (nginx && ONLY.has('warmstart')) await warmStartSection(nginx.url, { layout, seconds: DURATION_S, rate: 10_000, repeats: SHORT ? 1 : 3, from: FROM });
  } finally {
    await nginx?.stop();
    printLoadAtEnd();
  }
}

await main();
