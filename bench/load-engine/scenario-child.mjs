/**
 * One harness run of bench/load-engine in a process of its own (measure.ts measureHarnessChild), so it starts
 * cold as `harness load` does and runs what an installed harness runs:
 *   node scenario-child.mjs dist <url> <workers> <scenario JSON>               the build (npm run build first)
 *   node --import tsx scenario-child.mjs src <url> <workers> <scenario JSON>   the sources, as a checkout
 * The scenario is a one-request GET / (as measure.ts `scenario` makes it) with the JSON's fields on top.
 * → one JSON line on stdout: the result (without its encoded histograms), the progress samples with this process's
 * CPU at each, the CPU and wall time of the runScenario call (module loading not included), and the arrivals
 * dropped in the first second.
 * <workers> `thread` (bench split): the one-worker run, but on a worker thread of its own while the main isolate
 * idles, as each thread of a `--workers N` run does; it tells a worker thread's own cost from that of N isolates.
 */
import { isMainThread, Worker, workerData } from 'node:worker_threads';

async function runHere(from, url, workers, data) {
  const root = from === 'src' ? '../../src' : '../../dist/src';
  const ext = from === 'src' ? 'ts' : 'js';
  const { defaultConfig } = await import(`${root}/config/defaults.${ext}`);
  const { runScenario } = await import(`${root}/load/run-scenario.${ext}`);
  const { scenarioFromData } = await import(`${root}/load/scenario/load.${ext}`);

  const cpuNow = () => {
    const c = process.cpuUsage();
    return c.user + c.system;
  };
  const samples = [];
  const progress = { start() {}, stop() {}, update: (s) => void samples.push({ elapsedMs: s.elapsedMs, cpuUs: cpuNow() }) };
  const before = cpuNow();
  const started = performance.now();
  const { result, recorder } = await runScenario({
    scenario: scenarioFromData({ credential: 'none', requests: [{ name: 'get', method: 'GET', path: '/' }], ...JSON.parse(data) }),
    baseUrl: url,
    api: defaultConfig().api,
    credentials: {},
    workers: Number(workers),
    progress,
  });
  const wallS = (performance.now() - started) / 1000;
  const cpuUs = cpuNow() - before;
  delete result.histograms;
  // The first second's dropped arrivals (warmstart): the report's timeline does not carry drops per second.
  process.stdout.write(`${JSON.stringify({ result, samples, cpuUs, wallS, firstDropped: recorder.timeline[0]?.dropped ?? 0 })}\n`);
}

const args = isMainThread ? process.argv.slice(2) : workerData;
if (isMainThread && args[2] === 'thread') {
  const worker = new Worker(new URL(import.meta.url), { workerData: [args[0], args[1], '1', args[3]] });
  const code = await new Promise((resolve, reject) => worker.once('error', reject).once('exit', resolve));
  process.exitCode = code;
} else await runHere(...args);
