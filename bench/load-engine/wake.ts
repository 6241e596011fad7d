/**
 * bench/load-engine, the `wake` section: what this machine charges a thread for one sleep and wake, by how long it
 * slept. A pacer sleeps between its arrivals (pacer.ts), so this is the floor under its CPU per request at a given
 * rate, and a reason a pacer at half the rate (each of two workers on one core) pays more per request: on the
 * 2-core VM these figures were measured on, a wake after 10 ms costs several times one after 0.2 ms
 * (docs/performance.md). Each case is a fresh process pinned to the generator's core, nothing else in it:
 *   - node, Atomics.wait(ms): the pacer's own blocking sleep (Scheduler.sleep), n times in a row;
 *   - node, setInterval(ms), 1 and 10 ms: a wake through the event loop (epoll with libuv's millisecond timeout);
 *   - python3, time.sleep(ms) where python3 is installed: a small non-Node process for comparison.
 * CPU is the process's user + system time over the loop (getrusage: all its threads), divided by the wakes.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Layout } from './multicore.ts';
import { out } from './measure.ts';
import { which } from './nginx.ts';

const run = promisify(execFile);

/** Sleep lengths in ms: the pacer's slices (0.1–0.4), a millisecond timer, and a quiet 10 ms. */
const SLEEPS_MS = [0.1, 0.2, 0.4, 1, 10];
/** Wall time per case: enough wakes at 10 ms (150) to average the scheduler's noise; about 20 s for the section. */
const CASE_MS = 1500;

const NODE_WAIT = `const ms=+process.argv[1],n=Math.round(${CASE_MS}/ms),s=new Int32Array(new SharedArrayBuffer(4));
Atomics.wait(s,0,0,1);const a=process.cpuUsage(),t=performance.now();for(let i=0;i<n;i++)Atomics.wait(s,0,0,ms);
const d=process.cpuUsage(a);console.log(JSON.stringify({cpuUs:d.user+d.system,wakes:n,wallMs:performance.now()-t}))`;
// Node clamps a timer under 1 ms to 1 ms, so this one runs the 1 and 10 ms cases only; its first 20 ticks are not
// counted (the callback's first runs compile it).
const NODE_TIMER = `const ms=+process.argv[1],n=Math.round(${CASE_MS}/ms);let i=-20,a,t;
const h=setInterval(()=>{if(i===0){a=process.cpuUsage();t=performance.now()}if(++i<=n)return;clearInterval(h);const d=process.cpuUsage(a);
console.log(JSON.stringify({cpuUs:d.user+d.system,wakes:n,wallMs:performance.now()-t}))},ms)`;
const PYTHON_SLEEP = `import json,resource,sys,time
ms=float(sys.argv[1]);n=round(${CASE_MS}/ms);f=lambda r:(r.ru_utime+r.ru_stime)*1e6
a=resource.getrusage(resource.RUSAGE_SELF);t=time.monotonic()
for _ in range(n): time.sleep(ms/1000)
b=resource.getrusage(resource.RUSAGE_SELF);print(json.dumps({"cpuUs":f(b)-f(a),"wakes":n,"wallMs":(time.monotonic()-t)*1000}))`;

interface Wakes {
  cpuUs: number;
  wakes: number;
  wallMs: number;
}

async function measure(command: string[], ms: number, cpus: string | undefined): Promise<Wakes> {
  const line = [...(cpus ? ['taskset', '-c', cpus] : []), ...command, String(ms)];
  const { stdout } = await run(line[0] as string, line.slice(1));
  return JSON.parse(stdout) as Wakes;
}

export async function wakeSection(options: { layout: Layout }): Promise<void> {
  const cpus = options.layout.generator(1);
  out(`\n== wake: CPU a thread is charged per sleep and wake, by the sleep's length; fresh processes ${cpus ? `on CPU ${cpus}` : 'NOT PINNED'}, ${CASE_MS / 1000} s each ==`);
  out('(the floor under a pacer\'s CPU per request: it sleeps between arrivals; a pacer at half the rate sleeps twice as long)');
  const kinds: Array<[string, string[], number[]]> = [
    ['node Atomics.wait (the pacer\'s sleep)', [process.execPath, '-e', NODE_WAIT], SLEEPS_MS],
    ['node setInterval (an event-loop wake)', [process.execPath, '-e', NODE_TIMER], SLEEPS_MS.filter((ms) => ms >= 1)],
  ];
  if (which('python3')) kinds.push(['python3 time.sleep', ['python3', '-c', PYTHON_SLEEP], SLEEPS_MS]);
  else out('python3 time.sleep: not run (python3 not installed)');
  for (const [label, command, sleeps] of kinds) {
    const cells: string[] = [];
    for (const ms of sleeps) {
      try {
        const got = await measure(command, ms, cpus);
        cells.push(`${ms} ms: ${(got.cpuUs / got.wakes).toFixed(1)} µs (${(got.wallMs / got.wakes).toFixed(2)} ms apart)`);
      } catch (err) {
        cells.push(`${ms} ms: failed (${(err as Error).message.split('\n')[0]})`);
      }
    }
    out(`${label}, CPU per wake after sleeping — ${cells.join('; ')}`);
  }
}
