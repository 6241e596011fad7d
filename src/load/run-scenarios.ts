/**
 * Several scenarios in turn against one open target: each one's summary and notes logged as it finishes, the
 * first abortOnFail stop remembered, and nothing more started once the signal fired. Shared by `harness load`
 * (load-job.ts) and `harness run` (src/job/run-job.ts), so both run scenarios the same way.
 */
import type { ApiConfig, CredentialsConfig, DeepReadonly } from '../config/types.ts';
import { ConfigError } from '../errors/harness-errors.ts';
import { formatScenarioSummary } from './print-summary.ts';
import type { ProgressSink } from './progress.ts';
import type { ScenarioResult } from './result.ts';
import { bearersFor, runScenario } from './run-scenario.ts';
import type { Scenario } from './scenario/types.ts';
import type { WorkersSetting } from './workers/count.ts';
import type { MetricsOutSpec } from './metrics-out/prometheus-rw.ts';

export interface RunScenariosOptions {
  scenarios: readonly Scenario[];
  baseUrl: string;
  api: DeepReadonly<ApiConfig>;
  credentials: Readonly<CredentialsConfig>;
  log: (line: string) => void;
  progress?: ProgressSink;
  signal?: AbortSignal;
  /** Worker threads per scenario (wins over each scenario's `workers`). @default each scenario's, else auto */
  workers?: WorkersSetting;
  /** Live metrics output (--metrics-out / load.metricsOut), testid set. */
  metricsOut?: MetricsOutSpec;
}

export interface RunScenariosOutcome {
  results: ScenarioResult[];
  /** `<scenario>: <metric> <expr>` of the first threshold whose abortOnFail stopped a scenario. */
  abortedBy?: string;
}

/**
 * The scenarios whose credential is set for this target. A missing one is a ConfigError (exit 104) when
 * `missing` is "error" (scenarios asked for by name: better no run than a gate with nothing to compare), and a
 * skip with a note otherwise (the default smoke scenario against a target configured without a loadKey).
 * Called before any traffic.
 */
export function scenariosWithCredentials(
  scenarios: readonly Scenario[],
  credentials: Readonly<CredentialsConfig>,
  missing: 'error' | 'skip',
  log: (line: string) => void,
): Scenario[] {
  return scenarios.filter((scenario) => {
    try {
      bearersFor(scenario, credentials);
      return true;
    } catch (err) {
      if (missing === 'error' || !(err instanceof ConfigError)) throw err;
      log(`note: scenario ${scenario.name} not run: ${err.issues[0]?.path ?? `credentials.${scenario.credential}`} is not set for this target (set it, e.g. HARNESS_LOAD_KEY, or pass --no-load)`);
      return false;
    }
  });
}

export async function runScenarios(options: RunScenariosOptions): Promise<RunScenariosOutcome> {
  const results: ScenarioResult[] = [];
  let abortedBy: string | undefined;
  for (const scenario of options.scenarios) {
    if (options.signal?.aborted) break;
    const outcome = await runScenario({
      scenario,
      baseUrl: options.baseUrl,
      api: options.api,
      credentials: options.credentials,
      ...(options.workers !== undefined ? { workers: options.workers } : {}),
      ...(options.metricsOut ? { metricsOut: options.metricsOut } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.progress ? { progress: options.progress } : {}),
    });
    results.push(outcome.result);
    options.log(formatScenarioSummary(outcome.result));
    for (const note of outcome.notes) options.log(`note: ${note}`);
    if (outcome.abortedBy) abortedBy ??= `${scenario.name}: ${outcome.abortedBy.metric} ${outcome.abortedBy.expr}`;
  }
  return { results, ...(abortedBy ? { abortedBy } : {}) };
}
