/**
 * Benchmarks of issue 24 (not tests: they print, they do not assert):
 *  1. flows: the generator's CPU per request of a 3-step flow (captures, a variable in a later step) against a
 *     3-request mix at the same request rate, open model, one worker, on a JSON target in its own process;
 *  2. live metrics: the same mix with and without `metricsOut` (Prometheus remote write to a sink in the target's
 *     process), CPU per request and the largest RSS, and the pushes' share of one core.
 * CPU is process.cpuUsage() of this process (the generator) across the run only; each case runs `--repeats` times
 * alternately and the medians are printed. On a shared machine the spread is printed too: read ratios, not levels.
 *
 *   npm run bench:flows                       # 2000 req/s, 5 s per run, 3 repeats
 *   npm run bench:flows -- --rate 1000 --seconds 3 --repeats 2
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { defaultConfig } from '../../src/config/defaults.ts';
import { runScenario } from '../../src/load/run-scenario.ts';
import { checkScenarioText } from '../../src/load/scenario/load.ts';
import type { Scenario } from '../../src/load/scenario/types.ts';

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const RATE = arg('rate', 2000);
const SECONDS = arg('seconds', 5);
const REPEATS = arg('repeats', 3);

function scenario(yaml: string): Scenario {
  const { scenario: s, issues } = checkScenarioText(yaml, 'bench.yaml', {});
  if (!s) throw new Error(issues.map((i) => `${i.path}: ${i.message}`).join('\n'));
  return s;
}

const common = (rate: number) => `executor: constant-arrival-rate
rate: ${rate}
duration: ${SECONDS}s
preAllocatedVUs: 50
maxVUs: 200
credential: none
`;
const MIX = scenario(`${common(RATE)}requests:
  - { name: login, method: POST, path: /login, body: { user: "u{{seq}}" } }
  - { name: account, path: /account }
  - { name: list, path: /messages, query: { limit: 20 } }
`);
const FLOW = scenario(`${common(RATE / 3)}flow:
  steps:
    - { name: login, method: POST, path: /login, body: { user: "u{{seq}}" }, capture: { token: { json: /token } } }
    - { name: account, path: /account, headers: { authorization: "Bearer {{token}}" } }
    - { name: list, path: /messages, query: { limit: 20 }, capture: { next: { json: /pagination/next } } }
`);

interface Measured {
  cpuUsPerRequest: number;
  requests: number;
  rssMb: number;
  coreShare: number;
  notSent?: number;
}

async function measure(s: Scenario, baseUrl: string, metricsUrl?: string): Promise<Measured> {
  global.gc?.();
  let rss = process.memoryUsage().rss;
  const sampler = setInterval(() => (rss = Math.max(rss, process.memoryUsage().rss)), 100);
  const cpu = process.cpuUsage();
  const wall = performance.now();
  const { result } = await runScenario({ scenario: s, baseUrl, api: defaultConfig().api, credentials: {} as never, workers: 1, ...(metricsUrl ? { metricsOut: { kind: 'prometheus-rw', url: metricsUrl, testid: 'bench' } } : {}) });
  const used = process.cpuUsage(cpu);
  const ms = performance.now() - wall;
  clearInterval(sampler);
  const us = used.user + used.system;
  return { cpuUsPerRequest: us / Math.max(1, result.requests), requests: result.requests, rssMb: rss / 2 ** 20, coreShare: us / 1000 / ms, ...(result.metricsOutput ? { notSent: result.metricsOutput.samplesNotSent } : {}) };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const spread = (xs: number[]): string => `${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)}`;

async function main(): Promise<void> {
  const target = spawn(process.execPath, [new URL('./json-target.mjs', import.meta.url).pathname], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve) => createInterface({ input: target.stdout! }).once('line', resolve));
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    console.log(`bench flows: ${RATE} req/s, ${SECONDS} s per run, ${REPEATS} repeats, one worker; node ${process.version}`);
    const runs: Record<string, Measured[]> = { mix: [], flow: [], 'mix+metrics': [] };
    await measure(MIX, baseUrl); // warm the process (JIT, sockets) once, not counted
    for (let i = 0; i < REPEATS; i++) {
      runs.mix!.push(await measure(MIX, baseUrl));
      runs.flow!.push(await measure(FLOW, baseUrl));
      runs['mix+metrics']!.push(await measure(MIX, baseUrl, `${baseUrl}/api/v1/write`));
    }
    for (const [name, ms] of Object.entries(runs)) {
      const cpu = ms.map((m) => m.cpuUsPerRequest);
      console.log(`${name.padEnd(12)} CPU ${median(cpu).toFixed(1)} µs/request (spread ${spread(cpu)}), ${median(ms.map((m) => m.requests))} requests, core share ${(median(ms.map((m) => m.coreShare)) * 100).toFixed(1)} %, max RSS ${median(ms.map((m) => m.rssMb)).toFixed(0)} MB${ms[0]!.notSent !== undefined ? `, samples not sent ${ms.map((m) => m.notSent).join('/')}` : ''}`);
    }
    const ratio = (a: string, b: string): number => median(runs[a]!.map((m) => m.cpuUsPerRequest)) / median(runs[b]!.map((m) => m.cpuUsPerRequest));
    console.log(`flow / mix CPU per request: ${ratio('flow', 'mix').toFixed(3)} (goal ≤ 1.10)`);
    const streamingShare = median(runs['mix+metrics']!.map((m) => m.coreShare)) - median(runs.mix!.map((m) => m.coreShare));
    console.log(`metrics streaming: CPU per request ×${ratio('mix+metrics', 'mix').toFixed(3)}, ${(streamingShare * 100).toFixed(2)} % of a core more (goal ≤ 5 % of the one-worker ceiling), RSS ${(median(runs['mix+metrics']!.map((m) => m.rssMb)) - median(runs.mix!.map((m) => m.rssMb))).toFixed(1)} MB more (goal ≤ 20 MB)`);
  } finally {
    target.kill('SIGTERM');
  }
}

await main();
