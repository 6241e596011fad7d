/**
 * The k6 samples reader and the merge on small files written here in k6 v0.48.0's formats (the real-k6 runs are
 * test/integration/k6/): NDJSON and CSV, gzip'd or not, CRLF, a zone offset in times; what a runner alone and the
 * union conclude; errors with file and line; progress on long inputs.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, UsageError } from '../../../src/errors/harness-errors.ts';
import { importK6Runs } from '../../../src/job/import-k6.ts';
import { mergeK6Runners } from '../../../src/k6/merge.ts';
import { readSamples, type RequestSample } from '../../../src/k6/read-samples.ts';
import { scenarioFromData } from '../../../src/load/scenario/load.ts';
import { REPO_ROOT } from '../../helpers/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'k6-merge-unit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const T0 = Date.parse('2026-11-25T12:00:00Z');
const iso = (ms: number): string => `${new Date(Math.floor(ms)).toISOString().slice(0, 19)}.${String(Math.round((ms % 1000) * 1e6)).padStart(9, '0')}Z`;

interface Req {
  at: number;
  ms: number;
  name: string;
  status: number;
}

function ndjson(runner: number, reqs: Req[], dropped = 0): string {
  let out = '{"type":"Metric","data":{"name":"http_req_duration","type":"trend","contains":"time","thresholds":["p(99)<500"],"submetrics":null},"metric":"http_req_duration"}\n';
  for (const r of reqs) {
    const tags = `{"expected_response":"${r.status >= 200 && r.status < 400 || r.status === 429 ? 'true' : 'false'}","instance_id":"${runner}","name":"${r.name}","scenario":"s","status":"${r.status}"${r.status === 0 ? ',"error_code":"1050"' : ''}}`;
    out += `{"metric":"http_reqs","type":"Point","data":{"time":"${iso(T0 + r.at)}","value":1,"tags":${tags}}}\n`;
    out += `{"metric":"http_req_duration","type":"Point","data":{"time":"${iso(T0 + r.at)}","value":${r.ms},"tags":${tags}}}\n`;
  }
  for (let i = 0; i < dropped; i++) out += `{"metric":"dropped_iterations","type":"Point","data":{"time":"${iso(T0 + 500)}","value":1,"tags":{"instance_id":"${runner}","scenario":"s"}}}\n`;
  return out;
}

function csv(runner: number, reqs: Req[]): string {
  let out = 'metric_name,timestamp,metric_value,check,error,error_code,expected_response,group,method,name,proto,scenario,service,status,subproto,tls_version,url,extra_tags,metadata\n';
  for (const r of reqs) {
    const t = Math.floor((T0 + r.at) / 1000);
    out += `http_reqs,${t},1.000000,,,,true,,GET,${r.name},HTTP/1.1,s,,${r.status},,,"http://x/a,b",instance_id=${runner}&testrun_name=t,\n`;
    out += `http_req_duration,${t},${r.ms.toFixed(6)},,,,true,,GET,${r.name},HTTP/1.1,s,,${r.status},,,"http://x/a,b",instance_id=${runner}&testrun_name=t,\n`;
  }
  return out;
}

const scenario = scenarioFromData({
  executor: 'constant-arrival-rate',
  rate: 100,
  duration: '2s',
  preAllocatedVUs: 5,
  credential: 'none',
  requests: [{ name: 'a', path: '/a' }, { name: 'b', path: '/b' }],
  thresholds: { http_reqs: ['count<150'], 'http_req_duration{name:b}': ['max<50'], http_req_failed: ['rate<0.01'] },
});

/** 100 requests per runner over 2 s; runner 2's b requests are slow (60 ms). */
const runnerReqs = (runner: number): Req[] =>
  Array.from({ length: 100 }, (_, i) => ({ at: i * 20 + runner, ms: i % 2 ? (runner === 2 ? 60 : 4) : 1 + (i % 7) * 0.25, name: i % 2 ? 'b' : 'a', status: i % 2 ? 200 : 201 }));

describe('k6 samples: read and merge', () => {
  it('reads NDJSON plain and gzip\'d, CRLF and a zone offset, and CSV with quoted fields, to the same samples', async () => {
    const reqs = runnerReqs(1);
    const plain = join(dir, 'r1.json');
    writeFileSync(plain, ndjson(1, reqs));
    const gz = join(dir, 'r1.json.gz');
    writeFileSync(gz, gzipSync(ndjson(1, reqs).replace(/\n/g, '\r\n').replace(/Z"/g, '+00:00"')));
    const c = join(dir, 'r1.csv');
    writeFileSync(c, csv(1, reqs));
    const seen: Record<string, RequestSample[]> = {};
    for (const file of [plain, gz, c]) {
      seen[file] = [];
      const read = await readSamples(file, { request: (s) => seen[file]!.push(s), dropped: () => {} });
      expect(read.requests).toBe(100);
    }
    expect(seen[gz]).toEqual(seen[plain]);
    expect(seen[plain]![1]).toMatchObject({ name: 'b', status: 200, expected: true, durationMs: 4, instanceId: '1', timeMs: T0 + 21 });
    // CSV: the same requests, times to the second (k6's default CSV time format).
    expect(seen[c]!.map(({ timeMs: _t, ...s }) => s)).toEqual(seen[plain]!.map(({ timeMs: _t, ...s }) => s));
  });

  it('sums the runners, judges the union (count<150 crossed though each runner holds it), and keeps each runner\'s own verdict', async () => {
    const files = [1, 2].map((r) => {
      const f = join(dir, `m${r}.json.gz`);
      writeFileSync(f, gzipSync(ndjson(r, runnerReqs(r), r === 2 ? 3 : 0)));
      return f;
    });
    const { result, warnings } = await mergeK6Runners({ files, scenario });
    // The files declare http_req_duration with p(99)<500, which the scenario does not have: said, and not judged.
    expect(warnings).toEqual([`${files[0]}: the script gave http_req_duration the thresholds [p(99)<500], scenario "${scenario.name}" has []; judged: the scenario's`]);
    expect(result.requests).toBe(200);
    expect(result.dropped).toBe(3);
    expect(result.byName.a!.requests + result.byName.b!.requests).toBe(200);
    expect(result.statusCodes).toEqual({ '200': 100, '201': 100 });
    const verdict = Object.fromEntries(result.thresholds.map((t) => [`${t.metric} ${t.expr}`, t.ok]));
    expect(verdict).toEqual({ 'http_reqs count<150': false, 'http_req_duration{name:b} max<50': false, 'http_req_failed rate<0.01': true });
    const alone = result.k6.runners.map((r) => Object.fromEntries(r.thresholds.map((t) => [`${t.metric} ${t.expr}`, t.ok])));
    expect(alone[0]).toEqual({ 'http_reqs count<150': true, 'http_req_duration{name:b} max<50': true, 'http_req_failed rate<0.01': true });
    expect(alone[1]).toEqual({ 'http_reqs count<150': true, 'http_req_duration{name:b} max<50': false, 'http_req_failed rate<0.01': true });
    // The union's p99 is the union's order statistic (a slow b of runner 2), not an average of the runners' p99s.
    expect(result.latency.p99).toBeCloseTo(60, 1);
    expect(result.k6.runners[0]!.latency.p99).toBeLessThan(5);
    // The timeline covers both runners on one clock: every request is in it once.
    expect(result.timeline.reduce((a, p) => a + p.requests, 0)).toBe(200);
  });

  it('judges iteration thresholds on k6\'s own iteration samples (NDJSON and CSV), and calls them not evaluated where a file has none', async () => {
    // Each runner: 100 fast requests (≤ 60 ms) in 100 iterations of 150 ms (a think time k6 counts in iteration_duration).
    const iterationScenario = scenarioFromData({ ...scenario, thresholds: { iteration_duration: ['p(95)<100'], iterations: ['count>150'], http_req_duration: ['p(95)<100'] } });
    const iterationLines = (runner: number, failedEvery = 0): string => {
      let out = '';
      for (let i = 0; i < 100; i++) {
        const time = iso(T0 + i * 20 + runner + 5);
        out += `{"metric":"iteration_duration","type":"Point","data":{"time":"${time}","value":${150 + i / 10},"tags":{"instance_id":"${runner}","scenario":"s"}}}\n`;
        out += `{"metric":"iterations","type":"Point","data":{"time":"${time}","value":1,"tags":{"instance_id":"${runner}","scenario":"s"}}}\n`;
        if (failedEvery && i % failedEvery === 0) out += `{"metric":"iterations_failed","type":"Point","data":{"time":"${time}","value":1,"tags":{"instance_id":"${runner}","step":"login"}}}\n`;
      }
      return out;
    };
    const files = [1, 2].map((r) => {
      const f = join(dir, `it${r}.json`);
      writeFileSync(f, ndjson(r, runnerReqs(r)) + iterationLines(r, 10));
      return f;
    });
    const { result } = await mergeK6Runners({ files, scenario: iterationScenario });
    const verdict = Object.fromEntries(result.thresholds.map((t) => [`${t.metric} ${t.expr}`, t]));
    // The request histogram holds p(95)<100; k6's iterations (150–160 ms) cross it: judged on the iterations.
    expect(verdict['http_req_duration p(95)<100']).toMatchObject({ ok: true });
    expect(verdict['iteration_duration p(95)<100']!.ok).toBe(false);
    expect(verdict['iteration_duration p(95)<100']!.actual).toBeCloseTo(159.5, 0);
    expect(verdict['iterations count>150']).toMatchObject({ ok: true, actual: 200 });
    expect(result.iterations).toMatchObject({ count: 200, failed: 20, failedBy: { login: 20 } });
    for (const r of result.k6.runners) expect(r.thresholds.find((t) => t.metric === 'iterations')).toMatchObject({ ok: false, actual: 100 });

    // CSV: the same iteration samples, step tag in extra_tags.
    const csvIterations = (runner: number): string =>
      Array.from({ length: 100 }, (_, i) => `iteration_duration,${Math.floor((T0 + i * 20) / 1000)},${(150 + i / 10).toFixed(6)},,,,,,,,,s,,,,,,instance_id=${runner},\niterations,${Math.floor((T0 + i * 20) / 1000)},1.000000,,,,,,,,,s,,,,,,instance_id=${runner},\n`).join('') +
      `iterations_failed,${Math.floor(T0 / 1000)},1.000000,,,,,,,,,s,,,,,,instance_id=${runner}&step=account,\n`;
    const csvFiles = [1, 2].map((r) => {
      const f = join(dir, `it${r}.csv`);
      writeFileSync(f, csv(r, runnerReqs(r)) + csvIterations(r));
      return f;
    });
    const fromCsv = (await mergeK6Runners({ files: csvFiles, scenario: iterationScenario })).result;
    expect(fromCsv.thresholds.map((t) => [t.expr, t.ok, t.actual])).toEqual(result.thresholds.map((t) => [t.expr, t.ok, t.actual]));
    expect(fromCsv.iterations).toMatchObject({ count: 200, failed: 2, failedBy: { account: 2 } });

    // Runner 2's file without iteration samples: never judged on the requests — not evaluated, and failed.
    writeFileSync(files[1]!, ndjson(2, runnerReqs(2)));
    const partial = (await mergeK6Runners({ files, scenario: iterationScenario })).result;
    const missing = partial.thresholds.find((t) => t.metric === 'iteration_duration')!;
    expect(missing).toMatchObject({ ok: false, actual: 0, notEvaluated: `k6 output carries no iteration_duration (${files[1]})` });
    expect(partial.k6.runners[0]!.thresholds.find((t) => t.metric === 'iteration_duration')).toMatchObject({ ok: false, actual: expect.any(Number) });
    expect(partial.k6.runners[0]!.thresholds.find((t) => t.metric === 'iteration_duration')!.notEvaluated).toBeUndefined();
    expect(partial.k6.runners[1]!.thresholds.find((t) => t.metric === 'iterations')).toMatchObject({ ok: false, notEvaluated: 'k6 output carries no iterations' });

    // Iteration samples alone (a test that sent no HTTP request) are not a run of the scenario.
    const only = join(dir, 'iterations-only.json');
    writeFileSync(only, iterationLines(1));
    const refused = await mergeK6Runners({ files: [only], scenario: iterationScenario }).then(() => undefined, (e: unknown) => e);
    expect(refused).toBeInstanceOf(ConfigError);
    expect(String((refused as Error).message)).toContain('no http_req_duration or dropped_iterations sample');
  });

  it('names the file and the line of a cut, foreign or unexpected line, and of a request name the scenario lacks', async () => {
    const good = ndjson(1, runnerReqs(1));
    const cases: Array<[string, string, RegExp]> = [
      ['cut.json', good.slice(0, good.length - 40), /cut\.json:\d+: .*(cut short|truncated)/],
      ['middle.json', good.replace('\n{"metric":"http_reqs"', '\nhello\n{"metric":"http_reqs"'), /middle\.json:2: not a k6 --out json line/],
      // Line 3 is the first http_req_duration sample (the lines the merge parses; the others are checked only for k6's
      // prefix and a closing brace).
      ['bad-json.json', good.replace('{"metric":"http_req_duration","type":"Point","data":{', '{"metric":"http_req_duration","type":"Point","data":{{'), /bad-json\.json:3: not JSON/],
      ['name.json', good.replace(/"name":"b"/g, '"name":"zzz"'), /name\.json:5: request name "zzz" is not in scenario/],
    ];
    for (const [name, text, message] of cases) {
      const file = join(dir, name);
      writeFileSync(file, text);
      const err = await mergeK6Runners({ files: [file], scenario }).then(() => undefined, (e: unknown) => e);
      expect(err, name).toBeInstanceOf(ConfigError);
      expect(String((err as Error).message), name).toMatch(message);
    }
    const gz = gzipSync(good);
    const cutGz = join(dir, 'cut.json.gz');
    writeFileSync(cutGz, gz.subarray(0, gz.length - 30));
    const err = await mergeK6Runners({ files: [cutGz], scenario }).then(() => undefined, (e: unknown) => e);
    expect(String((err as Error).message)).toMatch(/cut\.json\.gz:\d+: .*(truncated|cut short|ends early)/);
  });

  it('harness import k6 refuses what cannot be merged: samples without --scenario, a summary among samples', async () => {
    const file = join(dir, 'one.json');
    writeFileSync(file, ndjson(1, runnerReqs(1)));
    const out = join(dir, 'refused', 'report.json');
    const noScenario = await importK6Runs({ files: [file], out }).then(() => undefined, (e: unknown) => e);
    expect(noScenario).toBeInstanceOf(UsageError);
    expect(String((noScenario as Error).message)).toContain('--scenario');
    const summary = join(REPO_ROOT, 'test/fixtures/k6/summary-export.json');
    const mixed = await importK6Runs({ files: [file, summary], out, scenario: 'smoke' }).then(() => undefined, (e: unknown) => e);
    expect(mixed).toBeInstanceOf(ConfigError);
    expect(String((mixed as Error).message)).toMatch(/summary-export\.json:1: a k6 summary holds percentiles, which cannot be merged/);
  });

  it('reports progress on a long input', async () => {
    const file = join(dir, 'long.json');
    writeFileSync(file, ndjson(1, Array.from({ length: 40_000 }, (_, i) => ({ at: i / 20, ms: 2, name: 'a', status: 200 }))));
    const seen: number[] = [];
    await readSamples(file, { request: () => {}, dropped: () => {} }, { progressEveryMs: 0, progress: (p) => seen.push(p.requests) });
    expect(seen.length).toBeGreaterThan(2);
    expect(seen.at(-1)).toBe(40_000);
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);
  });
});
