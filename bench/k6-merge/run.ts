/**
 * Bench (not a test): `harness import k6` merging N k6 runners' raw samples. Generates the inputs itself — what
 * k6 v0.48.0 writes with `--out json=FILE.json.gz` for the exported script under the k6-operator TestRun that
 * `harness export k6-operator` writes (K6_SYSTEM_TAGS as there, instance_id / testrun_name tags as the operator
 * adds): 15 sample lines per request (http_reqs, http_req_duration, the 6 timing parts, http_req_failed,
 * rate_limited, checks, data_sent, data_received, iteration_duration, iterations) — then runs the merge in a child
 * process and prints its time and peak RSS.
 *
 *   npm run bench:k6-merge                          # 3 runners × 1 000 000 requests, gzip
 *   npm run bench:k6-merge -- --requests 100000 --runners 2 --plain --keep
 *
 * Goal (issue 20): 3 × 1 000 000 requests in ≤ 30 s and ≤ 300 MB RSS.
 */
import { spawnSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { createGzip } from 'node:zlib';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const flag = (name: string, fallback: string): string => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? (args[i + 1] as string) : fallback;
};
const REQUESTS = Number(flag('requests', '1000000'));
const RUNNERS = Number(flag('runners', '3'));
const PLAIN = args.includes('--plain');
const KEEP = args.includes('--keep');
const dir = flag('dir', '') || mkdtempSync(join(tmpdir(), 'bench-k6-merge-'));

/** A small deterministic PRNG (mulberry32), so every run merges the same inputs. */
function prng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const METRICS: Array<[string, string, string]> = [
  ['http_reqs', 'counter', 'default'], ['http_req_duration', 'trend', 'time'], ['http_req_blocked', 'trend', 'time'], ['http_req_connecting', 'trend', 'time'],
  ['http_req_tls_handshaking', 'trend', 'time'], ['http_req_sending', 'trend', 'time'], ['http_req_waiting', 'trend', 'time'], ['http_req_receiving', 'trend', 'time'],
  ['http_req_failed', 'rate', 'default'], ['rate_limited', 'rate', 'default'], ['checks', 'rate', 'default'], ['data_sent', 'counter', 'data'],
  ['data_received', 'counter', 'data'], ['iteration_duration', 'trend', 'time'], ['iterations', 'counter', 'default'],
];

async function generate(runner: number): Promise<{ file: string; bytes: number; lines: number }> {
  const file = join(dir, `harness-bench-${runner}-x7k2p.json${PLAIN ? '' : '.gz'}`);
  const out = createWriteStream(file, { highWaterMark: 1 << 20 });
  const gzip = PLAIN ? undefined : createGzip({ level: 1 });
  if (gzip) gzip.pipe(out);
  const sink = gzip ?? out;
  const random = prng(runner * 7919);
  let bytes = 0;
  let lines = 0;
  const write = async (text: string): Promise<void> => {
    bytes += Buffer.byteLength(text);
    if (!sink.write(text)) await once(sink, 'drain');
  };
  // As k6 declares them: each metric with the thresholds the script (the bench scenario below) gave it.
  const declared: Record<string, string> = { http_req_duration: '["p(99)<100"]', http_req_failed: '["rate<0.01"]' };
  let block = METRICS.map(([name, type, contains]) => `{"type":"Metric","data":{"name":"${name}","type":"${type}","contains":"${contains}","thresholds":${declared[name] ?? '[]'},"submetrics":null},"metric":"${name}"}\n`).join('');
  lines += METRICS.length;
  const t0 = Date.parse('2026-11-25T12:00:00Z');
  const common = `"instance_id":"${runner}","scenario":"bench","testrun_name":"harness-bench"`;
  for (let i = 0; i < REQUESTS; i++) {
    // 1000 requests/s per runner; latency log-normal around 3 ms with a tail; 3 sends to 1 list; 1 % 429, 0.1 % timeouts.
    const ms = t0 + i + random() * 0.9;
    const whole = Math.floor(ms / 1000) * 1000;
    const time = `${new Date(whole).toISOString().slice(0, 19)}.${String(Math.round((ms - whole) * 1e6)).padStart(9, '0')}Z`;
    const latency = Math.exp(Math.log(3) + 0.6 * Math.sqrt(-2 * Math.log(random() + 1e-12)) * Math.cos(2 * Math.PI * random()));
    const send = i % 4 !== 3;
    const roll = random();
    const status = roll < 0.001 ? 0 : roll < 0.011 ? 429 : send ? 201 : 200;
    const duration = (status === 0 ? 10000 : latency).toFixed(6);
    const name = send ? 'send' : 'list';
    const method = send ? 'POST' : 'GET';
    const failed = status === 0 ? 1 : 0;
    const tags = `{"expected_response":"${failed ? 'false' : 'true'}",${status === 0 ? '"error":"request timeout","error_code":"1050",' : ''}${common.replace('"scenario"', `"method":"${method}","name":"${name}","scenario"`)},"status":"${status}"}`;
    const point = (metric: string, value: string | number, t = tags): string => `{"metric":"${metric}","type":"Point","data":{"time":"${time}","value":${value},"tags":${t}}}\n`;
    const plain = `{${common}}`;
    block +=
      point('http_reqs', 1) + point('http_req_duration', duration) + point('http_req_blocked', '0.002100') + point('http_req_connecting', 0) +
      point('http_req_tls_handshaking', 0) + point('http_req_sending', '0.021300') + point('http_req_waiting', duration) + point('http_req_receiving', '0.031200') +
      point('http_req_failed', failed) + point('rate_limited', status === 429 ? 1 : 0, `{"name":"${name}",${common}}`) +
      point('checks', status === 429 || status === 0 ? 0 : 1, `{"check":"${name}: expected status",${common}}`) +
      point('data_sent', send ? 312 : 141, plain) + point('data_received', send ? 402 : 1210, plain) + point('iteration_duration', duration, plain) + point('iterations', 1, plain);
    lines += 15;
    if (block.length > 1 << 20) {
      await write(block);
      block = '';
    }
  }
  await write(block);
  sink.end();
  await once(out, 'close');
  return { file, bytes, lines };
}

const scenarioFile = join(dir, 'bench.yaml');
writeFileSync(
  scenarioFile,
  `executor: constant-arrival-rate\nrate: ${1000 * RUNNERS}\ntimeUnit: 1s\nduration: ${Math.ceil(REQUESTS / 1000)}s\npreAllocatedVUs: 50\nmaxVUs: 500\ncredential: loadKey\nrequests:\n  - name: send\n    operation: send\n    weight: 3\n  - name: list\n    operation: list\n    weight: 1\nthresholds:\n  http_req_duration: ['p(99)<100']\n  'http_req_duration{name:send}': ['p(50)<5']\n  http_req_failed: ['rate<0.01']\n`,
);

const genStart = Date.now();
const inputs = [];
for (let r = 1; r <= RUNNERS; r++) inputs.push(await generate(r));
const genMs = Date.now() - genStart;
const onDisk = inputs.reduce((a, i) => a + statSync(i.file).size, 0);
const raw = inputs.reduce((a, i) => a + i.bytes, 0);
const lines = inputs.reduce((a, i) => a + i.lines, 0);
console.log(`inputs: ${RUNNERS} runners × ${REQUESTS} requests, ${lines} lines, ${(raw / 1e9).toFixed(2)} GB of NDJSON${PLAIN ? '' : `, ${(onDisk / 1e6).toFixed(0)} MB gzip'd`} (generated in ${(genMs / 1000).toFixed(1)} s)`);

const child = fileURLToPath(new URL('./merge-child.ts', import.meta.url));
const load = loadavg()[0]!.toFixed(1);
const result = spawnSync(process.execPath, ['--import', 'tsx', child, scenarioFile, join(dir, 'out', 'report.json'), ...inputs.map((i) => i.file)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
if (result.status !== 0 && result.status !== 99) {
  console.error(`merge failed (exit ${result.status}):\n${result.stdout}`);
  process.exit(1);
}
const measured = JSON.parse(result.stdout.trim().split('\n').pop() as string) as { ms: number; maxRssMB: number; requests: number; p50: number; p99: number };
const expected = RUNNERS * REQUESTS;
console.log(
  `merge: ${(measured.ms / 1000).toFixed(1)} s, peak RSS ${measured.maxRssMB.toFixed(0)} MB; merged ${measured.requests} requests (expected ${expected}${measured.requests === expected ? ', equal' : ', DIFFERENT'}), p50 ${measured.p50} ms, p99 ${measured.p99} ms`,
);
console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, load average ${load} when the merge started, Node ${process.version}`);
console.log(`goal: ≤ 30 s and ≤ 300 MB → time ${measured.ms <= 30_000 ? 'met' : 'NOT met'}, memory ${measured.maxRssMB <= 300 ? 'met' : 'NOT met'}`);
if (!KEEP) rmSync(dir, { recursive: true, force: true });
else console.log(`inputs kept in ${dir}`);
