/**
 * The throughput scenarios against a session's open target: the one scenario call of `harness load` and of
 * `harness run`'s load phase, with the target's credentials, the config's metrics output and the run's signal.
 */
import type { ProgressSink } from '../load/progress.ts';
import { thresholdsCrossed, type ScenarioResult } from '../load/result.ts';
import { runScenarios, type RunScenariosOutcome } from '../load/run-scenarios.ts';
import { metricsOutFor } from '../load/metrics-out/prometheus-rw.ts';
import type { Scenario } from '../load/scenario/types.ts';
import type { WorkersSetting } from '../load/workers/count.ts';
import type { Session } from './session.ts';

export interface ScenarioPhaseOptions {
  /** The first word of the line that says what runs: "load", "scenarios". */
  label: string;
  scenarios: readonly Scenario[];
  /** Worker threads per scenario; undefined leaves each scenario's own. */
  workers?: WorkersSetting;
  progress?: ProgressSink;
}

export async function scenarioPhase(session: Session, options: ScenarioPhaseOptions): Promise<RunScenariosOutcome> {
  const { config, target } = session;
  session.log(`${options.label}: ${options.scenarios.map((s) => s.name).join(', ')} against ${target.info.baseUrl}${target.info.embedded ? ' (embedded reference target)' : ''}`);
  return runScenarios({
    scenarios: options.scenarios,
    baseUrl: target.info.baseUrl,
    api: config.api,
    credentials: target.credentials,
    log: session.log,
    ...(options.workers !== undefined ? { workers: options.workers } : {}),
    ...(config.load.metricsOut ? { metricsOut: metricsOutFor(config.load.metricsOut, session.runId) } : {}),
    ...(session.signal ? { signal: session.signal } : {}),
    ...(options.progress ? { progress: options.progress } : {}),
  });
}

/** "thresholds crossed: …", when any was. */
export function logCrossed(results: readonly ScenarioResult[], log: (line: string) => void): void {
  const crossed = thresholdsCrossed(results);
  if (crossed.length) log(`thresholds crossed: ${crossed.map((t) => `${t.metric} ${t.expr} (actual ${t.actual})`).join('; ')}`);
}
