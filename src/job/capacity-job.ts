/**
 * `harness capacity`: the scenario's request mix at a constant arrival rate, one step per rate, judged by the
 * SLO (an http_req_duration expression such as `p(99)<200`) and the error budget ((failed + dropped) /
 * (requests + dropped)); a step that cannot reach 95 % of its rate is not sustainable either. A short warm-up at
 * the start rate comes first and is not judged. Writes reports/<run-id>/report.json (+ report.html, junit.xml):
 * one `scenarios[]` entry — the step at the highest sustainable rate (else the first step) — carrying `capacity`,
 * the curve of every step; no checks, verdict "not-evaluated". The run's session (session.ts) opens the target,
 * checks it answers, writes the files and decides the exit code, as for every command.
 */
import type { FrozenConfig } from '../config/types.ts';
import { HttpClient } from '../http/client.ts';
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
import { metricsOutFor } from '../load/metrics-out/prometheus-rw.ts';
import { openSession, type Session, type SessionOutcome } from './session.ts';
import type { ReportFileOptions } from './write-reports.ts';

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
  /** Options of the report files' printers. @default none */
  reportFiles?: ReportFileOptions;
}

export interface CapacityJobOutcome extends SessionOutcome {
  /** The search; absent when the target did not answer the preflight (nothing was measured). */
  result?: CapacityResult;
}

export async function runCapacityJob(options: CapacityJobOptions): Promise<CapacityJobOutcome> {
  const { scenario } = options;
  const stepMs = options.stepDurationMs ?? (scenario.duration ? getExecutor(scenario.executor).plannedDurationMs(scenario) : 10_000);
  const session = await openSession(options);
  // Each step's full result, by rate, so the report can carry the one at the sustainable rate.
  const measured = new Map<number, ScenarioResult>();
  const result = await session.run(async () => {
    const http = new HttpClient({ baseUrl: session.target.info.baseUrl, timeoutMs: options.config.target.timeoutMs });
    const reachable = await session.reachable(http, 'interrupted before any step ran').finally(() => http.close());
    if (!reachable) return undefined;
    session.log(`capacity: scenario ${scenario.name} against ${session.target.info.baseUrl}, SLO ${options.slo.expr}, error budget ${(options.errorBudget * 100).toFixed(2)}%, steps of ${formatDuration(stepMs)}`);
    return search(session, options, stepMs, measured);
  });
  if (result) {
    session.log(formatCapacity(result));
    // report.json records the interruption (run.aborted), as harness load and run do; the headline then says
    // INTERRUPTED (exit 105) and the capacity line where the search stopped.
    session.noteInterruption(interruptedText(result));
  }
  const shown = result && (measured.get(result.sustainableRps) ?? measured.get(result.steps[0]?.rate ?? -1));
  const outcome = await session.finish(shown ? { scenarios: [{ ...shown, capacity: result }] } : {});
  session.sayStopped();
  return { ...(result ? { result } : {}), ...outcome };
}

/** A warm-up step, then the search over the rates: each step judged by the SLO, the error budget and the rate achieved. */
async function search(session: Session, options: CapacityJobOptions, stepMs: number, measured: Map<number, ScenarioResult>): Promise<CapacityResult> {
  const { config, scenario } = options;
  const { target, signal } = session;
  const common = {
    baseUrl: target.info.baseUrl,
    api: config.api,
    credentials: target.credentials,
    ...(options.workers !== undefined ? { workers: options.workers } : {}),
    ...(signal ? { signal } : {}),
  };
  // An interrupted step is not a step: its numbers (0 req/s, requests cut) describe the stop, not the target.
  // undefined ends the search as "interrupted" with only the finished steps (search.ts).
  const measure = async (rate: number): Promise<CapacityStep | undefined> => {
    if (signal?.aborted) return undefined;
    const outcome = await runScenario({
      scenario: stepScenario(scenario, rate, stepMs),
      ...common,
      ...(config.load.metricsOut ? { metricsOut: metricsOutFor(config.load.metricsOut, session.runId) } : {}),
      ...(options.progress ? { progress: options.progress } : {}),
    });
    if (signal?.aborted) return undefined;
    measured.set(rate, outcome.result);
    const step = judgeStep(options, rate, outcome);
    const r = outcome.result;
    session.log(`  rate ${rate}/s: achieved ${step.achievedRps}/s${r.iterations ? ' (iterations)' : ''}, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, errors ${(step.errorRate * 100).toFixed(2)}% → ${step.ok ? 'ok' : 'broken'}${r.generatorBound ? ` (generator-bound: ${r.generatorBound.message})` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
    return step;
  };
  // A warm-up step, not judged: a cold target (JIT, lazily compiled validators, new connections) would break
  // the first step for reasons that have nothing to do with its capacity.
  await runScenario({ scenario: stepScenario(scenario, options.start, Math.min(stepMs, 2000)), ...common });
  const found = await searchCapacity({ start: options.start, max: options.max, measure });
  return { sustainableRps: found.sustainableRps, slo: options.slo.expr, errorBudget: options.errorBudget, steps: found.steps, ceiling: found.ceiling, ...(found.interrupted ? { interrupted: found.interrupted } : {}) };
}

type StepOutcome = Awaited<ReturnType<typeof runScenario>>;

/** One step against the SLO and the error budget ((failed + dropped) / (requests + dropped)), at 95 % of its rate. */
function judgeStep(options: CapacityJobOptions, rate: number, outcome: StepOutcome): CapacityStep {
  const r = outcome.result;
  const counts = outcome.recorder.counts();
  const errorRate = (counts.failed + r.dropped) / Math.max(1, counts.requests + r.dropped);
  const { aggregation: a } = options.slo;
  const sloValue = a.kind === 'p' ? outcome.recorder.histogram().getValueAtPercentile(a.p) / 1000 : a.kind === 'med' ? r.latency.p50 : a.kind === 'max' ? r.latency.max : outcome.recorder.histogram().mean / 1000;
  // A flow's rate is iterations per second (an arrival starts an iteration), so that is what it must achieve.
  const achieved = r.iterations ? r.iterations.rate : r.rps;
  const ok = compare(sloValue, options.slo.operator, options.slo.value) && errorRate <= options.errorBudget && achieved >= rate * 0.95;
  return { rate, achievedRps: achieved, p50: r.latency.p50, p99: r.latency.p99, errorRate: Math.round(errorRate * 1e6) / 1e6, ok, ...(r.generatorBound ? { generatorBound: true } : {}) };
}
