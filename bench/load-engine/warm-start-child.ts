/**
 * One warm-start case of bench/load-engine in a process of its own, so the generator starts cold as `harness
 * load` does (a case run after others in one process would find the hot path already optimised).
 *   tsx warm-start-child.ts <url> <rate> <seconds> <maxVUs> <on|off>  → one JSON line on stdout
 */
import { defaultConfig } from '../../src/config/defaults.ts';
import { runScenario } from '../../src/load/run-scenario.ts';
import { scenarioFromData } from '../../src/load/scenario/load.ts';

const [url, rate, seconds, maxVUs, warm] = process.argv.slice(2);
const { result, recorder } = await runScenario({
  scenario: scenarioFromData({
    name: 'warm',
    credential: 'none',
    requests: [{ name: 'get', method: 'GET', path: '/' }],
    executor: 'constant-arrival-rate',
    rate: Number(rate),
    duration: `${seconds}s`,
    preAllocatedVUs: Number(maxVUs),
    maxVUs: Number(maxVUs),
    warmUp: warm === 'on',
  }),
  baseUrl: url as string,
  api: defaultConfig().api,
  credentials: {},
  workers: 1,
});
const steady = result.timeline.slice(1, Number(seconds)).map((p) => p.p99).sort((a, b) => a - b);
process.stdout.write(
  `${JSON.stringify({
    firstP99: result.timeline[0]?.p99 ?? 0,
    steadyP99: steady[Math.floor(steady.length / 2)] ?? 0,
    firstDropped: recorder.timeline[0]?.dropped ?? 0,
    dropped: result.dropped,
    warmUp: result.warmUp,
    generatorBound: result.generatorBound !== undefined,
  })}\n`,
);
