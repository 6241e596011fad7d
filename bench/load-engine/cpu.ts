/**
 * bench/load-engine `cpu` section: CPU time per request beside throughput, for the harness and its peers in the
 * same run, each generator pinned to the same core (nginx on its own cores when the machine has them).
 *   - open model at a fixed rate (default 10 000 req/s, 50 VUs, no warm-up): the harness and wrk2 -R;
 *   - closed model, 50 connections: the harness, autocannon and wrk.
 * CPU is the generator process's user + system time, all its threads: the harness's from process.cpuUsage()
 * around the run (this process, pinned), a peer's from the shell's `times` after it exits.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { defaultConfig } from '../../src/config/defaults.ts';
import { runScenario } from '../../src/load/run-scenario.ts';
import { scenarioFromData } from '../../src/load/scenario/load.ts';
import type { Layout } from './multicore.ts';
import { which } from './nginx.ts';

const run = promisify(execFile);
const out = (line: string): void => void process.stdout.write(`${line}\n`);
const api = defaultConfig().api;

interface Measured {
  rps: number;
  cpuUs: number;
  requests: number;
  p99?: number;
  dropped?: number;
}

const perRequest = (m: Measured): string => (m.requests ? (m.cpuUs / m.requests).toFixed(1) : '—');
const line = (name: string, m: Measured | undefined): void =>
  out(
    m
      ? `${name.padEnd(34)} ${m.rps.toFixed(0).padStart(8)} req/s  ${perRequest(m).padStart(6)} µs CPU/request  ${(m.cpuUs / 1e6).toFixed(2).padStart(6)} s CPU${m.p99 !== undefined ? `  p99 ${m.p99.toFixed(2)} ms` : ''}${m.dropped !== undefined ? `  dropped ${m.dropped}` : ''}`
      : `${name.padEnd(34)} not run (binary not found)`,
  );

/** Runs `command` under sh and reads its children's user+sys time from `times`. */
async function peer(command: string[], cpus: string | undefined): Promise<{ stdout: string; cpuUs: number }> {
  const quoted = [...(cpus ? ['taskset', '-c', cpus] : []), ...command].map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(' ');
  const { stdout } = await run('sh', ['-c', `${quoted}; echo __times__; times`], { maxBuffer: 64 << 20 });
  const [body, times = ''] = stdout.split('__times__\n');
  const children = times.trim().split('\n')[1] ?? '';
  const seconds = [...children.matchAll(/(\d+)m([\d.]+)s/g)].reduce((sum, m) => sum + Number(m[1]) * 60 + Number(m[2]), 0);
  return { stdout: body ?? '', cpuUs: seconds * 1e6 };
}

async function harness(url: string, data: Record<string, unknown>): Promise<Measured> {
  const scenario = scenarioFromData({ credential: 'none', requests: [{ name: 'get', method: 'GET', path: '/' }], warmUp: false, workers: 1, ...data });
  const before = process.cpuUsage();
  const { result } = await runScenario({ scenario, baseUrl: url, api, credentials: {} });
  const cpu = process.cpuUsage(before);
  return { rps: result.rps, cpuUs: cpu.user + cpu.system, requests: result.requests, p99: result.latency.p99, dropped: result.dropped };
}

function wrk2Path(): string | undefined {
  for (const candidate of [process.env.HARNESS_WRK2, '../shared/tools/wrk2/wrk2', '.devkit/wrk2']) if (candidate && existsSync(candidate)) return candidate;
  return which('wrk2');
}

export async function cpuSection(url: string, options: { layout: Layout; seconds: number; rate: number; autocannonBin: string }): Promise<void> {
  const { layout, seconds, rate } = options;
  const cpus = layout.generator(1);
  out(`\n== CPU per request: generators on ${cpus ? `CPU ${cpus}` : 'any core (NOT PINNED)'}, nginx on CPU ${layout.nginx}, ${seconds} s each ==`);
  if (cpus && which('taskset')) await run('taskset', ['-a', '-p', '-c', cpus, String(process.pid)]);
  try {
    out(`-- open model: ${rate} req/s, 50 VUs`);
    const open = { executor: 'constant-arrival-rate', rate, duration: `${seconds}s`, preAllocatedVUs: 50, maxVUs: 50 };
    const harnessOpen = await harness(url, { name: 'open', ...open });
    line('harness open model', harnessOpen);
    const wrk2 = wrk2Path();
    let peerOpen: Measured | undefined;
    if (wrk2) {
      // wrk2 calibrates for its first ~10 s: run it at least 20 s and count only the rate it reports.
      const duration = Math.max(20, seconds);
      const { stdout, cpuUs } = await peer([wrk2, '-t1', '-c50', `-d${duration}s`, `-R${rate}`, '--latency', url], cpus);
      const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1] ?? 0);
      const p99 = /99\.000%\s+([\d.]+)(us|ms|s)/.exec(stdout);
      const p99ms = p99 ? Number(p99[1]) * (p99[2] === 'us' ? 0.001 : p99[2] === 's' ? 1000 : 1) : undefined;
      peerOpen = { rps, cpuUs, requests: rps * duration, ...(p99ms !== undefined ? { p99: p99ms } : {}) };
    }
    line(`wrk2 -t1 -c50 -R${rate}`, peerOpen);
    if (peerOpen) out(`harness / wrk2 CPU per request: ${(harnessOpen.cpuUs / harnessOpen.requests / (peerOpen.cpuUs / peerOpen.requests)).toFixed(2)}×`);

    out('-- closed model: 50 connections');
    const closed = await harness(url, { name: 'closed', executor: 'constant-vus', vus: 50, duration: `${seconds}s` });
    line('harness closed model', closed);
    const ac = await peer([process.execPath, options.autocannonBin, '--json', '-c', '50', '-d', String(seconds), url], cpus);
    const acJson = JSON.parse(ac.stdout) as { requests: { average: number; total: number } };
    const autocannon: Measured = { rps: acJson.requests.average, cpuUs: ac.cpuUs, requests: acJson.requests.total };
    line('autocannon -c50', autocannon);
    let wrk: Measured | undefined;
    if (which('wrk')) {
      const w = await peer(['wrk', '-t1', '-c50', `-d${seconds}s`, url], cpus);
      const requests = Number(/(\d+) requests in/.exec(w.stdout)?.[1] ?? 0);
      wrk = { rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(w.stdout)?.[1] ?? 0), cpuUs: w.cpuUs, requests };
    }
    line('wrk -t1 -c50', wrk);
    out(`harness / autocannon: throughput ${(closed.rps / autocannon.rps).toFixed(2)}×, CPU per request ${(closed.cpuUs / closed.requests / (autocannon.cpuUs / autocannon.requests)).toFixed(2)}×`);
  } finally {
    if (cpus && which('taskset')) await run('taskset', ['-a', '-p', '-c', `0-${layout.cores - 1}`, String(process.pid)]);
  }
}
