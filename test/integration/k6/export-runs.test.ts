/**
 * `harness export k6` runs: the JavaScript export of every shipped scenario, shortened with the exporter's own
 * --duration (and --rate where the scenario's rate is more than this shared 2-core machine can offer from two load
 * generators side by side), run unchanged on the real k6 (v0.48.0 here) against the reference target on 127.0.0.1,
 * and compared with `harness load` of the same scenario with the same flags (its embedded reference target). The
 * scenarios that share their flags run in one `harness load --scenario a,b,…` (one after another, each with its own
 * result in the report): the CLI's start and the embedded target's were most of what nine separate runs cost.
 *
 * Tolerances, and why:
 *  - arrivals (requests + dropped): equal within 2 % + 2. Both start rate × duration arrivals on the same schedule;
 *    the last arrival may fall on either side of the end, and a ramp's fractional targets are rounded in the export
 *    (k6 takes integers; the header comment says which);
 *  - mix: each request name's count within (VUs k6 used × total weight) of the harness's share. Both pick by smooth
 *    weighted round-robin, but k6 keeps one cycle per VU, and each VU may stop mid-cycle;
 *  - statuses: the same codes; 429s (the rate-limit scenario) within the scenario's own 5 % tolerance plus 5 %,
 *    because when an arrival lands in a quota window depends on each generator's timing;
 *  - thresholds: the same verdicts, except a latency threshold whose limit lies between the two measured values:
 *    k6 measures from a request's actual start, the harness from its intended start (coordinated omission), and
 *    the machine is shared — such a pair is printed, not failed;
 *  - checks: exact. Each request's status check passes for exactly the answers the harness's own code (the
 *    scenario's prepared requests, its recorder) does not count failed — the rate-limit scenario's 429s included —
 *    and for exactly those k6 marks expected_response (http_req_failed).
 */
import { readdirSync, readFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveConfigFile } from '../../../src/cli/parse-flags.ts';
import { loadConfig } from '../../../src/config/index.ts';
import { defaultConfig } from '../../../src/config/defaults.ts';
import { exportK6Script } from '../../../src/load/export/k6-script.ts';
import { Recorder } from '../../../src/load/metrics/recorder.ts';
import { prepareRequest } from '../../../src/load/request-mix.ts';
import { prepareFlow } from '../../../src/load/flow/prepare.ts';
import type { Scenario } from '../../../src/load/scenario/types.ts';
import { loadScenarioFile } from '../../../src/load/scenario/load.ts';
import { loadScenarios } from '../../../src/load/scenario/select.ts';
import { resolveScenarioFile, shippedScenarioNames } from '../../../src/load/scenario/resolve.ts';
import { parseDuration } from '../../../src/load/duration.ts';
import { startReferenceTarget } from '../../../src/target/index.ts';
import { REPO_ROOT, runCli } from '../../helpers/cli.ts';
import { k6, requireK6, runK6 } from '../../helpers/k6.ts';

const dir = mkdtempSync(join(tmpdir(), 'k6-export-run-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const DURATION = '2s';
/** The scenario whose export also runs through `harness export k6` (its rate is above MAX_RATE: both flags). */
const CLI_EXPORTED = 'capacity';
/** The highest arrival rate run here (per second): two generators and the target share two cores. */
const MAX_RATE = 300;

interface K6Counts {
  byName: Record<string, number>;
  statusCodes: Record<string, number>;
  requests: number;
  /** Each request's answer: its name, status and k6's expected_response. */
  answers: Array<{ name: string; status: number; expected: boolean }>;
}

function countSamples(file: string): K6Counts {
  const out: K6Counts = { byName: {}, statusCodes: {}, requests: 0, answers: [] };
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.startsWith('{"metric":"http_req_duration","type":"Point"')) continue;
    const tags = (JSON.parse(line) as { data: { tags: Record<string, string> } }).data.tags;
    out.requests++;
    out.byName[tags.name!] = (out.byName[tags.name!] ?? 0) + 1;
    out.statusCodes[tags.status!] = (out.statusCodes[tags.status!] ?? 0) + 1;
    out.answers.push({ name: tags.name!, status: Number(tags.status), expected: tags.expected_response === 'true' });
  }
  return out;
}

/**
 * What the harness's run says about these answers, by its own code: each request name's count of answers its
 * recorder counts failed, given the expected statuses the harness prepared for that request (or flow step).
 */
function harnessFailed(scenario: Scenario, answers: K6Counts['answers']): Record<string, number> {
  const expectedOf = new Map<string, (status: number) => boolean>();
  if (scenario.flow) for (const [name, expected] of stepExpected(scenario)) expectedOf.set(name, expected);
  else scenario.requests.forEach((spec, i) => expectedOf.set(spec.name, prepareRequest(spec, i, 0, { api: defaultConfig().api, credentials: {} }).expected));
  const names = [...expectedOf.keys()];
  const recorder = new Recorder(names, { rateLimitedAsFailure: scenario.rateLimitedAsFailure });
  for (const a of answers) if (a.status > 0) recorder.record(names.indexOf(a.name), a.status, expectedOf.get(a.name)!(a.status), 1, 0);
  return Object.fromEntries(names.map((n) => [n, recorder.counts(n).failed]));
}

/** A flow's steps' expected statuses as the harness prepares them (a login step needs some login to prepare). */
function stepExpected(scenario: Scenario): Map<string, (status: number) => boolean> {
  const credentials = { login: { email: 'prepare@example.com', password: 'prepare-only' } };
  return new Map(prepareFlow(scenario.flow!, { api: defaultConfig().api, credentials }).steps.map((s) => [s.name, s.expected]));
}

/** The flags `harness export k6` and `harness load` get for a shipped scenario: --rate only above MAX_RATE. */
function flagsOf(name: string): string[] {
  const scenario = loadScenarioFile(resolveScenarioFile(name));
  const peak = Math.max(scenario.rate ?? 0, scenario.startRate ?? 0, ...(scenario.stages ?? []).map((s) => s.target));
  return ['--duration', DURATION, ...(scenario.executor.includes('arrival-rate') && peak > MAX_RATE ? ['--rate', String(MAX_RATE)] : [])];
}

/**
 * The harness's own runs, on its embedded reference target: one `harness load` per set of flags, started by the
 * first test that needs it, holding every shipped scenario with those flags. Each scenario's result is its own
 * (report.json's scenarios[], by name), measured while no other scenario ran.
 */
const harnessRuns = new Map<string, Promise<Map<string, any>>>();
function harnessRunOf(flags: string[]): Promise<Map<string, any>> {
  const key = flags.join(' ');
  let started = harnessRuns.get(key);
  if (!started) {
    const names = shippedScenarioNames().filter((n) => flagsOf(n).join(' ') === key);
    started = (async () => {
      const harnessDir = mkdtempSync(join(dir, 'harness-'));
      // A bound on a hang, not a speed claim: up to seven 2 s scenarios with their warm-ups, on a loaded machine.
      const load = await runCli(['load', '--scenario', names.join(','), ...flags, '--out', harnessDir, '--no-progress'], { timeoutMs: 240_000 });
      expect([0, 99], load.stderr).toContain(load.code);
      const [runId] = readdirSync(harnessDir);
      const scenarios = JSON.parse(readFileSync(join(harnessDir, runId!, 'report.json'), 'utf8')).scenarios as Array<{ name: string }>;
      expect(scenarios.map((s) => s.name).sort()).toEqual([...names].sort());
      return new Map(scenarios.map((s) => [s.name, s]));
    })();
    harnessRuns.set(key, started);
  }
  return started;
}

describe.each(shippedScenarioNames())('scenario %s: the k6 export against the harness', (name) => {
  it.skipIf(k6.missing === 'skip')('runs unchanged on k6 and matches the harness run: requests, mix, statuses, thresholds', async (ctx) => {
    requireK6(ctx);
    const scenario = loadScenarioFile(resolveScenarioFile(name));
    const flags = flagsOf(name);
    const script = join(dir, `${name}.k6.js`);
    // The exporter in-process, composed as `harness export k6 --scenario NAME --duration D [--rate R] --out F.js`
    // composes it (the repository's config, the scenario with the same overrides): what this file tests is what k6
    // does with the script. One scenario (both flags) also goes through the real CLI, which must write the same bytes;
    // merge-runners.test.ts runs the CLI's export on k6 too.
    const [exportedScenario] = loadScenarios([name], { duration: DURATION, ...(flags.includes('--rate') ? { rate: MAX_RATE } : {}) }, REPO_ROOT);
    const config = loadConfig(resolveConfigFile(undefined, REPO_ROOT), { env: process.env });
    const source = exportK6Script(exportedScenario!, { api: config.api, sourceLabel: name, scenarioRef: name, language: 'js' });
    writeFileSync(script, source);
    if (name === CLI_EXPORTED) {
      expect(flags).toContain('--rate');
      const cliScript = join(dir, `${name}.cli.k6.js`);
      const exported = await runCli(['export', 'k6', '--scenario', name, ...flags, '--out', cliScript]);
      expect(exported.code, exported.stderr).toBe(0);
      expect(readFileSync(cliScript, 'utf8')).toBe(source);
    }

    // The harness's own run of the same scenario, same flags, on its embedded reference target.
    const harness = (await harnessRunOf(flags)).get(name);
    expect(harness, `${name} in the harness's report`).toBeDefined();

    const target = await startReferenceTarget({ host: '127.0.0.1', port: 0 });
    let run;
    try {
      const keys = target.credentials.apiKeys;
      run = await runK6(['--quiet', '--summary-trend-stats', 'avg,min,med,max,p(90),p(95),p(99),p(99.9)', '--out', `json=${join(dir, `${name}.ndjson`)}`, '--summary-export', join(dir, `${name}.summary.json`), script], {
        BASE_URL: target.baseUrl,
        HARNESS_LOAD_KEY: keys.load,
        HARNESS_API_KEY: keys.full,
        HARNESS_SECOND_KEY: keys.second,
        HARNESS_RESTRICTED_KEY: keys.restricted,
        // Journeys that log in (flows) read the account from these.
        HARNESS_LOGIN_EMAIL: target.credentials.login.email,
        HARNESS_LOGIN_PASSWORD: target.credentials.login.password,
      }, 120_000);
    } finally {
      await target.close();
    }
    // k6 parsed and ran the script: 0, or 99 when a threshold was crossed — never a script error (107) or 255.
    expect([0, 99], `${run.stderr.slice(-3000)}`).toContain(run.code);
    const summary = JSON.parse(readFileSync(join(dir, `${name}.summary.json`), 'utf8')) as { metrics: Record<string, Record<string, any>>; root_group: { checks: Record<string, { passes: number; fails: number }> } };
    const counts = countSamples(join(dir, `${name}.ndjson`));
    const k6Dropped = summary.metrics.dropped_iterations?.count ?? 0;
    expect(counts.requests).toBe(summary.metrics.http_reqs!.count);

    const report: string[] = [`${name} (${flags.join(' ')}): harness ${harness.requests} requests + ${harness.dropped} dropped, k6 ${counts.requests} + ${k6Dropped}`];
    // Checks: each name's status check fails for exactly the answers the harness counts failed (a mix) — or, in a
    // flow, whose status fails the step — and k6's expected_response agrees (no answer here is a transport error).
    expect(counts.answers.every((a) => a.status > 0), 'every request answered').toBe(true);
    const failedByHarness = harnessFailed(scenario, counts.answers);
    const steps = scenario.flow ? stepExpected(scenario) : undefined;
    for (const [reqName, failed] of Object.entries(failedByHarness)) {
      const check = summary.root_group.checks[`${reqName}: expected status`];
      const answered = counts.answers.filter((a) => a.name === reqName);
      if (answered.length === 0) continue;
      const stepFailed = steps ? answered.filter((a) => !steps.get(reqName)!(a.status)).length : failed;
      expect({ passes: check?.passes, fails: check?.fails }, `${name}/${reqName}: k6's check vs the harness on the same ${answered.length} answers (${JSON.stringify(counts.statusCodes)})`).toEqual({ passes: answered.length - stepFailed, fails: stepFailed });
      expect(answered.filter((a) => !a.expected).length, `${name}/${reqName}: k6's expected_response vs the harness's failed`).toBe(failed);
    }
    // Arrivals.
    const arrivalsH = harness.requests + harness.dropped;
    const arrivalsK = counts.requests + k6Dropped;
    expect(Math.abs(arrivalsH - arrivalsK), report.join('\n')).toBeLessThanOrEqual(Math.ceil(arrivalsH * 0.02) + 2);
    // Mix.
    const totalWeight = scenario.requests.reduce((a, r) => a + r.weight, 0);
    const vus = summary.metrics.vus_max?.max ?? summary.metrics.vus_max?.value ?? scenario.maxVUs ?? scenario.vus ?? 1;
    for (const r of scenario.requests) {
      const expected = (counts.requests * (harness.byName[r.name]?.requests ?? 0)) / Math.max(1, harness.requests);
      expect(Math.abs((counts.byName[r.name] ?? 0) - expected), `${name}/${r.name}: k6 ${counts.byName[r.name]}, harness share × k6 requests ${expected.toFixed(1)}, ${vus} VUs`).toBeLessThanOrEqual(vus * totalWeight);
    }
    // Statuses.
    expect(Object.keys(counts.statusCodes).sort()).toEqual(Object.keys(harness.statusCodes).sort());
    const share429 = (codes: Record<string, number>, total: number) => (codes['429'] ?? 0) / Math.max(1, total);
    const shares = [share429(counts.statusCodes, counts.requests), share429(harness.statusCodes, harness.requests)];
    if (shares[0]! + shares[1]! > 0) report.push(`429 share: k6 ${shares[0]!.toFixed(3)}, harness ${shares[1]!.toFixed(3)}`);
    // A short run in fixed windows: each run's 429 share moves by up to about share ÷ seconds at each end (a window
    // cut by the run's start or end), independently for the two runs; 0.1 at least.
    const seconds = (parseDuration(DURATION) ?? 2000) / 1000;
    const windowCut = (2 * Math.max(shares[0]!, shares[1]!)) / seconds;
    expect(Math.abs(shares[0]! - shares[1]!), `${report.join('\n')} (tolerance ${Math.max(0.1, windowCut).toFixed(3)})`).toBeLessThanOrEqual(Math.max(0.1, windowCut));
    // Thresholds: k6's --summary-export says true for a crossed threshold.
    for (const t of harness.thresholds as Array<{ metric: string; expr: string; ok: boolean; actual: number }>) {
      const k6Metric = summary.metrics[t.metric];
      const k6Crossed = k6Metric?.thresholds?.[t.expr];
      if (t.metric === 'rate_limited' && scenario.rateLimit) continue; // the harness's rateLimit expectation: no k6 counterpart
      if (k6Crossed === undefined && t.metric === 'dropped_iterations' && k6Dropped === 0) {
        // k6 writes no dropped_iterations metric when nothing was dropped; the threshold held on 0.
        report.push(`${t.metric} ${t.expr}: k6 dropped nothing (no metric), harness ok=${t.ok}`);
        continue;
      }
      expect(k6Crossed, `${t.metric} ${t.expr} in k6's summary`).toBeTypeOf('boolean');
      if (!k6Crossed === t.ok) continue;
      // Verdicts may differ only where the two runs measured values on both sides of the limit: a latency (the harness
      // from the intended start, k6 from the actual one) or a count of dropped arrivals, which each generator measured
      // of itself at another moment of a machine that may be loaded. k6 writes every trend stat it is asked for
      // (--summary-trend-stats below) and a counter's count and rate.
      const stat = /^(p\(\d+(?:\.\d+)?\)|avg|min|max|med|rate|count)/.exec(t.expr)?.[1];
      const limit = Number(/[<>=!]=?=?\s*(-?[\d.]+)/.exec(t.expr)?.[1]);
      const k6Value = stat ? Number(k6Metric?.[stat]) : NaN;
      const measured = t.metric.startsWith('http_req_duration') || t.metric === 'dropped_iterations';
      const straddles = measured && Number.isFinite(k6Value) && (k6Value - limit) * (t.actual - limit) <= 0;
      expect(straddles, `${t.metric} ${t.expr}: harness ${t.ok ? 'held' : 'crossed'} (${t.actual}), k6 ${k6Crossed ? 'crossed' : 'held'} (${k6Value})`).toBe(true);
      report.push(`${t.metric} ${t.expr}: verdicts differ with the limit between the two (harness ${t.actual}, k6 ${k6Value})`);
    }
    console.log(report.join('\n  '));
  }, 300_000);
});
