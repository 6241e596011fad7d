/**
 * `harness capacity`: the scenario's request mix at a constant arrival rate, one step per rate, judged by the
 * SLO (an http_req_duration expression such as `p(99)<200`) and the error budget ((failed + dropped) /
 * (requests + dropped)); a step that cannot reach 95 % of its rate is not sustainable either. A short warm-up at
 * the start rate comes first and is not judged. Writes reports/<run-id>/report.json (+ report.html, junit.xml):
 * one `scenarios[]` entry — the step at the highest sustainable rate (else the first step) — carrying `capacity`,
 * the curve of every step; no checks, verdict "not-evaluated".
 */
import { join } from 'node:path';
import type { FrozenConfig } from '../config/types.ts';
import { HttpClient } from '../http/client.ts';
import { openTarget } from './open-target.ts';
import { assertWritableOutDir } from './out-dir.ts';
import { assertReachable } from './preflight.ts';
import { runSecrets, writeReports } from './write-reports.ts';
import { buildReport, newRunId } from '../report/report.ts';
import { formatDuration } from '../load/duration.ts';
import { getExecutor } from '../load/executors/registry.ts';
import { formatCapacity } from '../load/print-summary.ts';
import { interruptedText } from '../util/capacity-words.ts';
import type { ProgressSink } from '../load/progress.ts';
import type { CapacityResult, CapacityStep, ScenarioResult } from '../load/result.ts';
import { runScenario } from '../load/run-scenario.ts';
import type { Scenario } from '../load/scenario/types.ts';
import { compare } from '../load/thresholds/evaluate.ts';
import type { Aggregation, Operator } from '../load/thresholds/parse.ts';
import { searchCapacity } from '../load/capacity/search.ts';
import { stepScenario } from '../load/capacity/step-scenario.ts';
import type { WorkersSetting } from '../load/workers/count.ts';
import { silent } from '../util/silent.ts';
import { metricsOutFor } from '../load/metrics-out/prometheus-rw.ts';

export interface CapacityJobOptions {
  config: FrozenConfig;
  scenario: Scenario;
  slo: { expr: string; aggregation: Aggregation; operator: Operator; value: number };
  errorBudget: number;
  start: number;
  max: number;
  /** Length of each step. @default the scenario's duration, else 10 s */
  stepDurationMs?: number;
  /** Where the job's lines go (what it runs, summary tables, files written). @default nothing is printed; the CLI hands in a printer. */
  log?: (line: string) => void;
  progress?: ProgressSink;
  signal?: AbortSignal;
  /** Worker threads per step (wins over the scenario's `workers`). */
  workers?: WorkersSetting;
}

export async function runCapacityJob(options: CapacityJobOptions): Promise<{ result: CapacityResult; file: string }> {
  const { config, scenario } = options;
  // A library call prints nothing unless it is handed a `log` (the CLI hands one that prints).
  const rawLog = options.log ?? silent;
  // Every log line passes the run's secrets (every encoding) once the target, and so its credentials, is known.
  let redact = (line: string): string => line;
  const log = (line: string): void => rawLog(redact(line));
  const stepMs = options.stepDurationMs ?? (scenario.duration ? getExecutor(scenario.executor).plannedDurationMs(scenario) : 10_000);
  await assertWritableOutDir(config.report.outDir);
  const runId = newRunId();
  const startedAt = new Date().toISOString();
  const target = await openTarget(config);
  const secrets = runSecrets(config, target.credentials);
  redact = (line) => secrets.redactText(line);
  let result: CapacityResult;
  // Each step's full result, by rate, so the report can carry the one at the sustainable rate.
  const measured = new Map<number, ScenarioResult>();
  try {
    const http = new HttpClient({ baseUrl: target.info.baseUrl, timeoutMs: config.target.timeoutMs });
    try {
      await assertReachable(http, config.api.paths.listMessages, { deadlineMs: config.target.timeoutMs, ...(options.signal ? { signal: options.signal } : {}) });
    } finally {
      await http.close();
    }
    log(`capacity: scenario ${scenario.name} against ${target.info.baseUrl}, SLO ${options.slo.expr}, error budget ${(options.errorBudget * 100).toFixed(2)}%, steps of ${formatDuration(stepMs)}`);
    // An interrupted step is not a step: its numbers (0 req/s, requests cut) describe the stop, not the target.
    // undefined ends the search as "interrupted" with only the finished steps (search.ts).
    const measure = async (rate: number): Promise<CapacityStep | undefined> => {
      if (options.signal?.aborted) return undefined;
      const outcome = await runScenario({
        scenario: stepScenario(scenario, rate, stepMs),
        baseUrl: target.info.baseUrl,
        api: config.api,
        credentials: target.credentials,
        ...(options.workers !== undefined ? { workers: options.workers } : {}),
        ...(config.load.metricsOut ? { metricsOut: metricsOutFor(config.load.metricsOut, runId) } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.progress ? { progress: options.progress } : {}),
      });
      if (options.signal?.aborted) return undefined;
      const r = outcome.result;
      measured.set(rate, r);
      const counts = outcome.recorder.counts();
      const errorRate = (counts.failed + r.dropped) / Math.max(1, counts.requests + r.dropped);
      const { aggregation: a } = options.slo;
      const sloValue = a.kind === 'p' ? outcome.recorder.histogram().getValueAtPercentile(a.p) / 1000 : a.kind === 'med' ? r.latency.p50 : a.kind === 'max' ? r.latency.max : outcome.recorder.histogram().mean / 1000;
      // A flow's rate is iterations per second (an arrival starts an iteration), so that is what it must achieve.
      const achieved = r.iterations ? r.iterations.rate : r.rps;
      const ok = compare(sloValue, options.slo.operator, options.slo.value) && errorRate <= options.errorBudget && achieved >= rate * 0.95;
      const step: CapacityStep = { rate, achievedRps: achieved, p50: r.latency.p50, p99: r.latency.p99, errorRate: Math.round(errorRate * 1e6) / 1e6, ok, ...(r.generatorBound ? { generatorBound: true } : {}) };
      log(`  rate ${rate}/s: achieved ${achieved}/s${r.iterations ? ' (iterations)' : ''}, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, errors ${(errorRate * 100).toFixed(2)}% → ${ok ? 'ok' : 'broken'}${r.generatorBound ? ` (generator-bound: ${r.generatorBound.message})` : ''}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
      return step;
    };
    // A warm-up step, not judged: a cold target (JIT, lazily compiled validators, new connections) would break
    // the first step for reasons that have nothing to do with its capacity.
    await runScenario({ scenario: stepScenario(scenario, options.start, Math.min(stepMs, 2000)), baseUrl: target.info.baseUrl, api: config.api, credentials: target.credentials, ...(options.workers !== undefined ? { workers: options.workers } : {}), ...(options.signal ? { signal: options.signal } : {}) });
    const found = await searchCapacity({ start: options.start, max: options.max, measure });
    result = { sustainableRps: found.sustainableRps, slo: options.slo.expr, errorBudget: options.errorBudget, steps: found.steps, ceiling: found.ceiling, ...(found.interrupted ? { interrupted: found.interrupted } : {}) };
  } finally {
    await target.close();
  }
  log(formatCapacity(result));
  const runDir = join(config.report.outDir, runId);
  const shown = measured.get(result.sustainableRps) ?? measured.get(result.steps[0]?.rate ?? -1);
  const report = buildReport({
    runId,
    startedAt,
    target: target.info,
    ...(shown ? { scenarios: [{ ...shown, capacity: result }] } : {}),
    // report.json records the interruption (run.aborted), as harness load and run do; the headline then says
    // INTERRUPTED (exit 105) and the capacity line where the search stopped.
    ...(options.signal?.aborted ? { aborted: { code: 'HARNESS_ABORTED', message: interruptedText(result) } } : {}),
  });
  await writeReports(report, runDir, secrets, log);
  return { result, file: join(runDir, 'report.json') };
}
