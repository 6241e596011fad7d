/**
 * bench/load-engine, the `split` section: what splitting one open-model rate in two costs on one core, in the steady
 * state, for the harness and for wrk2. Every case runs on the generator's core (nginx on its own), long enough that
 * its start and one-off work (JIT, the idle main isolate's memory-reducing GCs) fall before the measured window:
 *   harness --workers 1 at R, 50 VUs            harness --workers 2 at R, 50 VUs (one process, two worker threads)
 *   harness --workers 1 at R on a worker thread of its own, the main isolate idle (what one thread of a
 *   `--workers N` run is): it tells a worker thread's own cost from that of two isolates taking turns on a core
 *   harness --workers 1 at R/2, 25 VUs          two harness processes at R/2 each, 25 VUs each
 *   wrk2 -t1 -c50 -R R                          two wrk2 -t1 -c25 at R/2 each            wrk2 -t1 -c25 -R R/2
 * CPU is read from /proc/<pid>/task/<tid>/schedstat (the scheduler's run time of every thread, in ns) at the window's
 * start and end, and wakes from the threads' voluntary context switches; per request is over the requests the rate
 * asks for in the window (each run's dropped arrivals and p99, over the whole run, show whether it held the rate).
 * For the harness on worker threads, the busiest threads (the workers) are shown apart from the rest. Linux only.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { harnessChildCommand, median, out, parseChildRun, parseWrk, wrk2Path } from './measure.ts';
import { buildIfNeeded, type Layout } from './multicore.ts';

const run = promisify(execFile);

interface Running {
  pid: number;
  /** Its stdout once it has exited. */
  exited: Promise<string>;
}

function launch(command: string[]): Running {
  const running = run(command[0] as string, command.slice(1), { maxBuffer: 1 << 24 });
  // taskset execs the command, so this pid is the generator's own.
  return { pid: running.child.pid as number, exited: running.then((r) => r.stdout) };
}

interface ThreadTimes {
  /** ns run, by thread id. */
  runNs: Map<string, number>;
  wakes: number;
}

function threadTimes(pid: number): ThreadTimes {
  const runNs = new Map<string, number>();
  let wakes = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      runNs.set(tid, Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]));
      wakes += Number(/^voluntary_ctxt_switches:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/task/${tid}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      // A thread that ended between the listing and the read: its time is no longer the process's to show.
    }
  }
  return { runNs, wakes };
}

interface Window {
  /** µs of CPU in the window, by thread, busiest first. */
  threadsUs: number[];
  wakes: number;
}

function windowOf(before: ThreadTimes, after: ThreadTimes): Window {
  const threadsUs = [...after.runNs].map(([tid, ns]) => (ns - (before.runNs.get(tid) ?? 0)) / 1000).sort((a, b) => b - a);
  return { threadsUs, wakes: after.wakes - before.wakes };
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts the generators together, reads their threads over [skip, skip + window] s, and waits for them to end. */
async function measureTogether(commands: string[][], skipS: number, windowS: number): Promise<{ windows: Window[]; stdouts: string[] }> {
  const running = commands.map(launch);
  const settled = Promise.allSettled(running.map((r) => r.exited));
  await sleep(skipS * 1000);
  const before = running.map((r) => threadTimes(r.pid));
  await sleep(windowS * 1000);
  const windows = running.map((r, i) => windowOf(before[i] as ThreadTimes, threadTimes(r.pid)));
  const results = await settled;
  const failed = results.find((r) => r.status === 'rejected');
  if (failed) throw (failed as PromiseRejectedResult).reason;
  return { windows, stdouts: results.map((r) => (r as PromiseFulfilledResult<string>).value) };
}

export async function splitSection(url: string, options: { layout: Layout; rate: number; windowS: number; rounds: number }): Promise<void> {
  const { layout, rate, windowS, rounds } = options;
  const cpus = layout.generator(1);
  if (!existsSync('/proc/self/task')) return out('\n== split: not run (needs Linux /proc) ==');
  await buildIfNeeded('dist');
  const skipS = 10;
  const runS = skipS + windowS + 3;
  out(`\n== split: one open-model rate (${rate} req/s) in two, steady state on one core (${cpus ? `CPU ${cpus}` : 'NOT PINNED'}); seconds ${skipS}–${skipS + windowS} of ${runS} s runs, ${rounds} round(s) ==`);
  out('(CPU per request: the threads\' run time in the window over the requests the rate asks for in it; wakes: voluntary context switches; dropped and p99 over the whole run)');
  const taskset = cpus ? ['taskset', '-c', cpus] : [];
  const harness = (workers: number | 'thread', r: number, vus: number): string[] =>
    harnessChildCommand({ from: 'dist', url, workers, cpus, scenario: { executor: 'constant-arrival-rate', rate: r, duration: `${runS}s`, preAllocatedVUs: vus, maxVUs: vus } });
  const wrk2 = wrk2Path();
  const wrk2Run = (r: number, connections: number): string[] => [...taskset, wrk2.path as string, '-t1', `-c${connections}`, `-d${runS}s`, `-R${r}`, `${url}/`];
  const half = rate / 2;
  // The cases' labels, which the ratios at the end name.
  const label = {
    one: `harness --workers 1 at ${rate}`,
    two: `harness --workers 2 at ${rate}`,
    oneHalf: `harness --workers 1 at ${half}`,
    processes: `two harness processes at ${half} each`,
    thread: `harness W=1 on a worker thread at ${rate}`,
    wrk2: `wrk2 at ${rate}`,
    wrk2Two: `two wrk2 at ${half} each`,
    wrk2Half: `wrk2 at ${half}`,
  };
  const cases: Array<{ label: string; commands: string[][]; rate: number; kind: 'harness' | 'wrk2'; workers?: number }> = [
    { label: label.one, commands: [harness(1, rate, 50)], rate, kind: 'harness' },
    { label: label.two, commands: [harness(2, rate, 50)], rate, kind: 'harness', workers: 2 },
    { label: label.oneHalf, commands: [harness(1, half, 25)], rate: half, kind: 'harness' },
    { label: label.processes, commands: [harness(1, half, 25), harness(1, half, 25)], rate, kind: 'harness' },
    { label: label.thread, commands: [harness('thread', rate, 50)], rate, kind: 'harness', workers: 1 },
    ...(wrk2.path
      ? [
          { label: label.wrk2, commands: [wrk2Run(rate, 50)], rate, kind: 'wrk2' as const },
          { label: label.wrk2Two, commands: [wrk2Run(half, 25), wrk2Run(half, 25)], rate, kind: 'wrk2' as const },
          { label: label.wrk2Half, commands: [wrk2Run(half, 25)], rate: half, kind: 'wrk2' as const },
        ]
      : []),
  ];
  if (!wrk2.path) out(`wrk2: not run (${wrk2.why})`);
  const perRequest = new Map<string, number[]>();
  for (let round = 1; round <= rounds; round++) {
    for (const c of cases) {
      let got: Awaited<ReturnType<typeof measureTogether>>;
      try {
        got = await measureTogether(c.commands, skipS, windowS);
      } catch (err) {
        out(`round ${round}: ${c.label.padEnd(40)} failed: ${(err as Error).message}`);
        continue;
      }
      const requests = c.rate * windowS;
      const totalUs = got.windows.reduce((sum, w) => sum + w.threadsUs.reduce((a, b) => a + b, 0), 0);
      const us = totalUs / requests;
      perRequest.set(c.label, [...(perRequest.get(c.label) ?? []), us]);
      const wakes = got.windows.map((w) => Math.round(w.wakes / windowS)).join(' + ');
      const held = got.stdouts
        .map((stdout) => {
          if (c.kind === 'wrk2') return `${parseWrk(stdout).rps.toFixed(0)} req/s`;
          const { result } = parseChildRun(stdout);
          return `dropped ${result.dropped}, p99 ${result.latency.p99.toFixed(2)} ms`;
        })
        .join('; ');
      const workers = c.workers ? got.windows[0]?.threadsUs : undefined;
      const apart = workers ? `  (${c.workers === 1 ? 'the busiest thread' : `the ${c.workers} busiest threads`} ${(workers.slice(0, c.workers).reduce((a, b) => a + b, 0) / requests).toFixed(1)}, the other ${workers.length - c.workers!} ${(workers.slice(c.workers).reduce((a, b) => a + b, 0) / requests).toFixed(1)} µs/req)` : '';
      out(`round ${round}: ${c.label.padEnd(40)} ${us.toFixed(1).padStart(6)} µs CPU/req  wakes/s ${wakes}  ${held}${apart}`);
    }
  }
  const mid = (label: string): number | undefined => median(perRequest.get(label) ?? []);
  const ratio = (a: string, b: string): string => {
    const x = mid(a);
    const y = mid(b);
    return x !== undefined && y !== undefined ? `${(x / y).toFixed(2)}×` : 'n/a';
  };
  out(`median of ${rounds} round(s), CPU per request: harness W=2 / W=1 ${ratio(label.two, label.one)}; W=1 on a worker thread / W=1 ${ratio(label.thread, label.one)}; two harness processes / W=1 ${ratio(label.processes, label.one)}; W=1 at ${half} / W=1 at ${rate} ${ratio(label.oneHalf, label.one)}`);
  if (wrk2.path) out(`median of ${rounds} round(s), CPU per request: two wrk2 / one wrk2 ${ratio(label.wrk2Two, label.wrk2)}; wrk2 at ${half} / wrk2 at ${rate} ${ratio(label.wrk2Half, label.wrk2)}; harness W=1 / wrk2 at ${rate} ${ratio(label.one, label.wrk2)}`);
}
