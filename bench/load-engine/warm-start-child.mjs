/**
 * One warm-start case of bench/load-engine in a process of its own, so the generator starts cold as `harness
 * load` does (a case run after others in one process would find the hot path already optimised).
 *   node warm-start-child.mjs dist <url> <rate> <seconds> <maxVUs> <on|off>               the build, as installed
 *   node --import tsx warm-start-child.mjs src <url> <rate> <seconds> <maxVUs> <on|off>   the sources, as a checkout
 * → one JSON line on stdout.
 */
const [from, url, rate, seconds, maxVUs, warm] = process.argv.slice(2);
const root = from === 'src' ? '../../src' : '../../dist/src';
const ext = from === 'src' ? 'ts' : 'js';
const { defaultConfig } = await import(`${root}/config/defaults.${ext}`);
const { runScenario } = await import(`${root}/load/run-scenario.${ext}`);
const { scenarioFromData } = await import(`${root}/load/scenario/load.${ext}`);

// CPU of this process around the run (warm-up included, start-up and module loading not): what the bench prints per request.
const before = process.cpuUsage();
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
  baseUrl: url,
  api: defaultConfig().api,
  credentials: {},
  workers: 1,
});
const cpu = process.cpuUsage(before);
const steady = result.timeline.slice(1, Number(seconds)).map((p) => p.p99).sort((a, b) => a - b);
process.stdout.write(
  `${JSON.stringify({
    firstP99: result.timeline[0]?.p99 ?? 0,
    steadyP99: steady[Math.floor(steady.length / 2)] ?? 0,
    firstDropped: recorder.timeline[0]?.dropped ?? 0,
    dropped: result.dropped,
    warmUp: result.warmUp,
    generatorBound: result.generatorBound !== undefined,
    rps: result.rps,
    cpuUs: cpu.user + cpu.system,
    requests: result.requests + (result.warmUp?.requests ?? 0),
    p99: result.latency.p99,
  })}\n`,
);
