/**
 * `harness load` end to end: open the target (the URL, or the embedded reference target with its own
 * credentials), check it answers, run each scenario in turn, write reports/<run-id>/report.json (+ report.html,
 * junit.xml: a report with `scenarios[]` and no checks, verdict "not-evaluated"), and decide the exit code (99 when
 * any threshold was crossed).
 */
import { join } from 'node:path';
import type { FrozenConfig } from '../config/types.ts';
import { isHarnessError, type HarnessError } from '../errors.ts';
import { ExitCode, type ExitCodeValue } from '../exit-codes.ts';
import { HttpClient } from '../http/client.ts';
import { openTarget } from './open-target.ts';
import { assertWritableOutDir } from './out-dir.ts';
import { assertReachable } from './preflight.ts';
import { runSecrets, writeReports } from './write-reports.ts';
import { buildReport, newRunId, type Report } from '../report/report.ts';
import type { ProgressSink } from '../load/progress.ts';
import { thresholdsCrossed, type ScenarioResult } from '../load/result.ts';
import { runScenarios } from '../load/run-scenarios.ts';
import type { Scenario } from '../load/scenario/types.ts';
import type { WorkersSetting } from '../load/workers/count.ts';
import { silent } from '../util/silent.ts';
import { metricsOutFor } from '../load/metrics-out/prometheus-rw.ts';

export interface LoadJobOptions {
  config: FrozenConfig;
  scenarios: Scenario[];
  /** Where the job's lines go (what it runs, summary tables, files written). @default nothing is printed; the CLI hands in a printer. */
  log?: (line: string) => void;
  progress?: ProgressSink;
  signal?: AbortSignal;
  /** `--workers`: worker threads per scenario (wins over the scenario's `workers`). */
  workers?: WorkersSetting;
}

export interface LoadJobOutcome {
  report: Report;
  runDir: string;
  file: string;
  exitCode: ExitCodeValue;
}

export async function runLoadJob(options: LoadJobOptions): Promise<LoadJobOutcome> {
  const { config } = options;
  // A library call prints nothing unless it is handed a `log` (the CLI hands one that prints).
  const rawLog = options.log ?? silent;
  // Every log line passes the run's secrets (every encoding) once the target, and so its credentials, is known.
  let redact = (line: string): string => line;
  const log = (line: string): void => rawLog(redact(line));
  await assertWritableOutDir(config.report.outDir);
  const runId = newRunId();
  const runDir = join(config.report.outDir, runId);
  const startedAt = new Date().toISOString();
  const target = await openTarget(config);
  const secrets = runSecrets(config, target.credentials);
  redact = (line) => secrets.redactText(line);
  const results: ScenarioResult[] = [];
  let aborted: string | undefined;
  let unreachable: HarnessError | undefined;
  try {
    const http = new HttpClient({ baseUrl: target.info.baseUrl, timeoutMs: config.target.timeoutMs });
    try {
      await assertReachable(http, config.api.paths.listMessages, { deadlineMs: config.target.timeoutMs, ...(options.signal ? { signal: options.signal } : {}) });
    } catch (err) {
      // Interrupted or unreachable: still a report (what was measured: nothing) and the documented exit code.
      if (options.signal?.aborted) aborted = 'interrupted before any scenario ran';
      else if (isHarnessError(err)) unreachable = err;
      else throw err;
    } finally {
      await http.close();
    }
    if (aborted || unreachable) return await finish();
    log(`load: ${options.scenarios.map((s) => s.name).join(', ')} against ${target.info.baseUrl}${target.info.embedded ? ' (embedded reference target)' : ''}`);
    const outcome = await runScenarios({
      scenarios: options.scenarios,
      baseUrl: target.info.baseUrl,
      api: config.api,
      credentials: target.credentials,
      log,
      ...(options.workers !== undefined ? { workers: options.workers } : {}),
      ...(config.load.metricsOut ? { metricsOut: metricsOutFor(config.load.metricsOut, runId) } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.progress ? { progress: options.progress } : {}),
    });
    results.push(...outcome.results);
    aborted = outcome.abortedBy;
  } finally {
    await target.close();
  }
  return finish();

  async function finish(): Promise<LoadJobOutcome> {
    if (options.signal?.aborted) aborted ??= 'interrupted';
    const report = buildReport({
      runId,
      startedAt,
      target: target.info,
      scenarios: results,
      // A threshold with abortOnFail ends a scenario early by design (its result says so, exit 99); only an
      // interruption makes the run itself aborted.
      ...(options.signal?.aborted ? { aborted: { code: 'HARNESS_ABORTED', message: aborted ?? 'interrupted' } } : {}),
      ...(unreachable && !options.signal?.aborted ? { aborted: { code: unreachable.code, message: unreachable.message } } : {}),
    });
    if (aborted && !options.signal?.aborted) log(`stopped early: ${aborted}`);
    await writeReports(report, runDir, secrets, log);
    const file = join(runDir, 'report.json');
    const crossed = thresholdsCrossed(results);
    if (crossed.length) log(`thresholds crossed: ${crossed.map((t) => `${t.metric} ${t.expr} (actual ${t.actual})`).join('; ')}`);
    if (unreachable) log(`error: ${unreachable.message}`);
    const exitCode = options.signal?.aborted ? ExitCode.Interrupted : unreachable ? unreachable.exitCode : crossed.length ? ExitCode.ThresholdsCrossed : ExitCode.Certified;
    return { report, runDir, file, exitCode };
  }
}
