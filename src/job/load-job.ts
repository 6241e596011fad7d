/**
 * `harness load` end to end, through the run's session (session.ts): check the target answers, run each scenario
 * in turn, write reports/<run-id>/report.json (+ report.html, junit.xml: a report with `scenarios[]` and no checks,
 * verdict "not-evaluated"), and decide the exit code (99 when any threshold was crossed).
 */
import type { FrozenConfig } from '../config/types.ts';
import { HttpClient } from '../http/client.ts';
import type { ProgressSink } from '../load/progress.ts';
import type { ScenarioResult } from '../load/result.ts';
import type { Scenario } from '../load/scenario/types.ts';
import type { WorkersSetting } from '../load/workers/count.ts';
import { logCrossed, scenarioPhase } from './scenario-phase.ts';
import { openSession, type SessionOutcome } from './session.ts';
import type { ReportFileOptions } from './write-reports.ts';

export interface LoadJobOptions {
  config: FrozenConfig;
  scenarios: Scenario[];
  /** Where the job's lines go (what it runs, summary tables, files written). @default nothing is printed; the CLI hands in a printer. */
  log?: (line: string) => void;
  progress?: ProgressSink;
  signal?: AbortSignal;
  /** `--workers`: worker threads per scenario (wins over the scenario's `workers`). */
  workers?: WorkersSetting;
  /** Options of the report files' printers. @default none */
  reportFiles?: ReportFileOptions;
}

export type LoadJobOutcome = SessionOutcome;

export async function runLoadJob(options: LoadJobOptions): Promise<LoadJobOutcome> {
  const session = await openSession(options);
  const results: ScenarioResult[] = [];
  await session.run(async () => {
    const http = new HttpClient({ baseUrl: session.target.info.baseUrl, timeoutMs: options.config.target.timeoutMs });
    // Interrupted or unreachable: still a report (what was measured: nothing) and the documented exit code.
    const reachable = await session.reachable(http, 'interrupted before any scenario ran').finally(() => http.close());
    if (!reachable) return;
    const outcome = await scenarioPhase(session, {
      label: 'load',
      scenarios: options.scenarios,
      ...(options.workers !== undefined ? { workers: options.workers } : {}),
      ...(options.progress ? { progress: options.progress } : {}),
    });
    results.push(...outcome.results);
    // A threshold with abortOnFail ends a scenario early by design (its result says so, exit 99); only an
    // interruption makes the run itself aborted.
    session.noteInterruption(outcome.abortedBy ?? 'interrupted');
    if (outcome.abortedBy && !session.interrupted) session.log(`stopped early: ${outcome.abortedBy}`);
  });
  session.noteInterruption('interrupted');
  const outcome = await session.finish({ scenarios: results });
  logCrossed(results, session.log);
  session.sayStopped();
  return outcome;
}
