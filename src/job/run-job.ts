/**
 * `runJob`: the whole `harness run`, start to finish — conformance checks, then the throughput scenarios and the
 * webhook delivery under load against the same target: select suites → open the target → preflight → run the
 * checks → run-end hooks → scenarios (when given) → build the report → hand it to the reporters. (It was called
 * runConformance, a name from before it ran the scenarios too; src/index.ts keeps that name as an alias.)
 * Whatever happens after the target is open, the target is closed and a report of what was measured is written.
 * Exit code precedence (exitCodeOf): interrupted 105 > unreachable or lost 3 > not certified 1 > incomplete 4 >
 * threshold crossed 99 > 0.
 */
import { join } from 'node:path';
import { exitCodeOfReport } from '../report/headline.ts';
import type { FrozenConfig } from '../config/types.ts';
import { RunConditions } from '../conformance/conditions.ts';
import { createContext, type RunContext, type RunFindings } from '../conformance/context.ts';
import type { CheckRegistry, Suite } from '../conformance/registry.ts';
import type { CheckResult } from '../conformance/result.ts';
import { runChecks } from '../conformance/runner.ts';
import { SchemaValidator } from '../conformance/schema-validator.ts';
import { TrafficLog, type TrafficLimits } from '../conformance/traffic.ts';
import { securityOf } from '../conformance/owasp.ts';
import { coverageOf } from '../conformance/coverage.ts';
import { isHarnessError } from '../errors.ts';
import { EventBus, type Reporter } from '../report/events.ts';
import type { ExitCodeValue } from '../exit-codes.ts';
import { PoliteState } from '../http/polite-wait.ts';
import { readRateLimit } from '../ratelimit/headers.ts';
import { HttpClient } from '../http/client.ts';
import { withAbortSignal } from '../http/deadline.ts';
import type { SecretRegistry } from '../http/redact.ts';
import { buildReport, newRunId, type Report, type Selection } from '../report/report.ts';
import type { ProgressSink } from '../load/progress.ts';
import { thresholdsCrossed, type ScenarioResult } from '../load/result.ts';
import { runScenarios, scenariosWithCredentials } from '../load/run-scenarios.ts';
import { metricsOutFor } from '../load/metrics-out/prometheus-rw.ts';
import type { Scenario } from '../load/scenario/types.ts';
import { openTarget, type OpenTarget } from './open-target.ts';
import { assertWritableFile, assertWritableOutDir } from './out-dir.ts';
import { assertReachable } from './preflight.ts';
import { writeHar } from './har.ts';
import { redactingReporter } from '../reporters/redacting-reporter.ts';
import { fileReporters, runSecrets } from './write-reports.ts';
import { startWebhooksUnderLoad, withUnderLoad } from './webhooks-under-load.ts';
import { silent } from '../util/silent.ts';

export interface RunJobOptions {
  config: FrozenConfig;
  registry: CheckRegistry;
  /** Reporters besides report.json (the console reporter, later HTML and JUnit). */
  reporters?: Reporter[];
  /** Where the job's lines go (what it runs, summary tables, files written). @default nothing is printed; the CLI hands in a printer. */
  log?: (line: string) => void;
  /** Aborts between checks; the report says so. */
  signal?: AbortSignal;
  /**
   * Throughput scenarios, already loaded (the CLI reads `load.scenarios` / `--scenario`): run after the checks
   * and the run-end hooks, against the same target, with its credentials (loadKey). @default none
   */
  scenarios?: readonly Scenario[];
  /** Live progress of each scenario. @default none */
  progress?: ProgressSink;
  /**
   * A scenario whose credential (loadKey) the target lacks: "skip" it with a note, or fail with a ConfigError
   * (exit 104) before any traffic. The CLI says "error" for scenarios named with --scenario. @default "skip"
   */
  missingCredential?: 'error' | 'skip';
  /** Write the checks' traffic here as HAR 1.2, redacted (`harness run --har FILE`). @default none */
  harFile?: string;
  /** Bounds of the traffic log the standing checks and `harFile` read (the docs generator lifts them). @default TrafficLog's */
  trafficLimits?: TrafficLimits;
}

export interface JobOutcome {
  report: Report;
  /** reports/<run-id> */
  runDir: string;
  exitCode: ExitCodeValue;
}

export async function runJob(options: RunJobOptions): Promise<JobOutcome> {
  const { config, registry } = options;
  // A library call prints nothing unless it is handed a `log` (the CLI hands one that prints).
  const rawLog = options.log ?? silent;
  // Every log line goes through the run's secrets once they are known (redact.ts: every encoding).
  let redactLine = (line: string): string => line;
  const log = (line: string): void => rawLog(redactLine(line));
  // Usage and config mistakes surface before any traffic.
  const suites = registry.select(config.conformance.suites);
  registry.assertKnownChecks(config.conformance.skipChecks, 'conformance.skipChecks', config.source);
  const schemas = new SchemaValidator({ replacements: config.api.schemas, errorSchema: config.api.errorSchema });

  // Before any traffic: a run that cannot write its report is a wasted run.
  await assertWritableOutDir(config.report.outDir);
  if (options.harFile) await assertWritableFile(options.harFile, '--har');
  const runId = newRunId();
  const runDir = join(config.report.outDir, runId);
  const startedAt = new Date().toISOString();

  const target = await openTarget(config);
  let scenarios: Scenario[];
  // Before any traffic: a scenario whose credential this target lacks is skipped, or a config error (exit 104).
  try {
    scenarios = scenariosWithCredentials(options.scenarios ?? [], target.credentials, options.missingCredential ?? 'skip', log);
  } catch (err) {
    await target.close();
    throw err;
  }
  // The config's secrets and the credentials in use (the embedded target's generated ones are secrets too).
  const secrets = runSecrets(config, target.credentials);
  redactLine = (line) => secrets.redactText(line);
  // The file reporters first: at run-finished they log the files they wrote, and the console's verdict line comes
  // after them, the last line of the run (what a CI log's tail shows).
  const bus = new EventBus([...fileReporters(secrets, log), ...(options.reporters ?? []).map((r) => redactingReporter(r, secrets))]);
  // Conformance traffic: a 429 no polite wait gets past ends the check as "not run: rate limited" (polite-wait.ts).
  const polite = new PoliteState({ throwWhenLimited: true, readLimit: (headers) => readRateLimit(headers, config.api.rateLimitHeaders, Date.now()) });
  // The run measures its own conditions from before its first request (conditions.ts): the checks' timing
  // tolerances come from them, and report.json records them.
  const conditions = new RunConditions().start();
  const http = new HttpClient({
    baseUrl: target.info.baseUrl,
    timeoutMs: config.target.timeoutMs,
    polite,
    onExchange: (exchange) => {
      if (exchange.response) conditions.recordRoundTrip(exchange.durationMs);
    },
  });
  const results: CheckResult[] = [];
  let aborted: { code: string; message: string } | undefined;
  let ctx: RunContext | undefined;
  let findings: RunFindings = {};
  let checksDone = false;
  let scenarioResults: ScenarioResult[] = [];
  let started = false;
  try {
    started = true;
    await bus.emit({
      type: 'run-started',
      runId,
      startedAt,
      target: target.info,
      suites: suites.map((s) => ({ name: s.name, title: s.title, checks: s.checks.length })),
    });
    await assertReachable(http, config.api.paths.listMessages, { deadlineMs: config.target.timeoutMs, ...(options.signal ? { signal: options.signal } : {}) });
    ctx = createContext({ config, target: target.info, http, credentials: target.credentials, schemas, secrets, traffic: new TrafficLog(options.trafficLimits), conditions });
    results.push(
      ...(await runChecks({
        suites,
        ctx,
        bus,
        skipChecks: new Set(config.conformance.skipChecks),
        checkTimeoutMs: config.conformance.checkTimeoutMs,
        ...(options.signal ? { signal: options.signal } : {}),
        // The console reporter says "run aborted: …" with this message once the report is built.
        onTargetLost: (lost) => {
          aborted = { code: lost.code, message: secrets.redactText(lost.message) };
        },
      })),
    );
    if (options.signal?.aborted) aborted = { code: 'HARNESS_ABORTED', message: 'interrupted before every check ran' };
    checksDone = true;
  } catch (err) {
    // An interruption during the preflight is an interruption, not an unreachable target.
    if (options.signal?.aborted) aborted = { code: 'HARNESS_ABORTED', message: 'interrupted before any check ran' };
    else if (!isHarnessError(err)) throw err;
    else aborted = { code: err.code, message: secrets.redactText(err.message) };
  } finally {
    // Whatever ended the checks, a live progress line ends here, before the hooks, the scenarios or anything they log.
    if (started) await bus.emit({ type: 'checks-finished' });
    // Run-end hooks (closing a webhook receiver, deleting what checks registered) still talk to the target, within
    // a deadline: after a lost target or an interruption they must not hold the report back.
    const endRunMs = aborted || options.signal?.aborted ? Math.min(5000, config.conformance.checkTimeoutMs) : config.conformance.checkTimeoutMs;
    // A failure here (a HAR file that cannot be written after all) must still close the client and the target:
    // an embedded target left listening kept the process alive after "internal error". It is rethrown below.
    let endFailed: { err: unknown } | undefined;
    try {
      if (ctx) findings = await withAbortSignal(AbortSignal.timeout(endRunMs), () => ctx!.endRun(log));
      if (ctx && options.harFile) {
        await writeHar(options.harFile, ctx.traffic.exchanges, secrets, ctx.traffic.total);
        log(`har: ${options.harFile}`);
      }
    } catch (err) {
      endFailed = { err };
    }
    await http.close();
    // The scenarios run after the run-end hooks (the suite's receiver, with its deliberate 500s, is gone by then)
    // and only when the checks ran to the end.
    try {
      if (endFailed) throw endFailed.err;
      if (checksDone && !aborted && scenarios.length > 0) {
        // A second webhook receiver during the scenarios: delivery latency under load (webhooks-under-load.ts).
        const underLoad = await startWebhooksUnderLoad({ config, baseUrl: target.info.baseUrl, apiKey: target.credentials.apiKey, checks: results, secrets, log });
        try {
          ({ scenarioResults, aborted } = await loadPhase(options, target, scenarios, log, secrets, runId));
        } finally {
          const webhooks = withUnderLoad(findings.webhooks, await underLoad?.finish());
          if (webhooks) findings = { ...findings, webhooks };
        }
      }
    } finally {
      conditions.stop();
      await target.close();
    }
  }

  const report = buildReport({
    runId,
    startedAt,
    target: target.info,
    checks: results,
    coverage: coverageOf(suites.flatMap((suite) => suite.checks)),
    security: securityOf(suites.flatMap((suite) => suite.checks), results),
    ...selectionOf(registry, suites, config),
    ...(aborted ? { aborted } : {}),
    ...(scenarioResults.length > 0 ? { scenarios: scenarioResults } : {}),
    ...findings,
    conditions: conditions.snapshot(),
  });
  await bus.emit({ type: 'run-finished', report, outDir: runDir });
  return { report, runDir, exitCode: exitCodeOf(report) };
}

/**
 * The run's selection, when it left catalogue checks out: suites or checks chosen (flags or config) or ids skipped.
 * Certified means every catalogue check ran (docs/reference/exit-codes.md), so such a run is never a certification.
 */
export function selectionOf(registry: CheckRegistry, suites: readonly Suite[], config: FrozenConfig): { selection?: Selection } {
  const skip = new Set(config.conformance.skipChecks);
  const chosen = suites.flatMap((suite) => suite.checks.map((check) => check.id));
  const catalogue = registry.checkIds.length;
  const selected = chosen.filter((id) => !skip.has(id)).length;
  const skipped = chosen.filter((id) => skip.has(id));
  if (selected === catalogue && skipped.length === 0) return {};
  const only = registry.restrictedTo;
  return {
    selection: {
      selected,
      catalogue,
      ...(config.conformance.suites.length > 0 && config.conformance.suites.length < registry.suites.length ? { suites: [...config.conformance.suites] } : {}),
      ...(only ? { checks: only } : {}),
      ...(skipped.length ? { skipChecks: skipped } : {}),
    },
  };
}

/**
 * Precedence: interrupted (105) > unreachable or lost (3) > not certified (1) > incomplete (4) > a throughput
 * threshold crossed (99) > certified (0).
 */
export function exitCodeOf(report: Report): ExitCodeValue {
  // One precedence for the exit code and for what every report says first (report.html, console, junit.xml).
  return exitCodeOfReport(report);
}

/** The throughput scenarios against the run's open target; an interruption or a harness error ends the run early. */
async function loadPhase(
  options: RunJobOptions,
  target: OpenTarget,
  scenarios: readonly Scenario[],
  log: (line: string) => void,
  secrets: SecretRegistry,
  runId: string,
): Promise<{ scenarioResults: ScenarioResult[]; aborted?: { code: string; message: string } }> {
  const scenarioResults: ScenarioResult[] = [];
  log(`scenarios: ${scenarios.map((s) => s.name).join(', ')} against ${target.info.baseUrl}${target.info.embedded ? ' (embedded reference target)' : ''}`);
  try {
    const outcome = await runScenarios({
      scenarios,
      baseUrl: target.info.baseUrl,
      api: options.config.api,
      credentials: target.credentials,
      log: (line) => log(secrets.redactText(line)),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.progress ? { progress: options.progress } : {}),
      // load.workers (the config) applies to harness run's scenarios too; undefined leaves each scenario's own.
      ...(options.config.load.workers !== undefined ? { workers: options.config.load.workers } : {}),
      ...(options.config.load.metricsOut ? { metricsOut: metricsOutFor(options.config.load.metricsOut, runId) } : {}),
    });
    scenarioResults.push(...outcome.results);
    const crossed = thresholdsCrossed(outcome.results);
    if (crossed.length) log(`thresholds crossed: ${crossed.map((t) => `${t.metric} ${t.expr} (actual ${t.actual})`).join('; ')}`);
  } catch (err) {
    if (!isHarnessError(err)) throw err;
    return { scenarioResults, aborted: { code: err.code, message: secrets.redactText(err.message) } };
  }
  if (options.signal?.aborted) return { scenarioResults, aborted: { code: 'HARNESS_ABORTED', message: 'interrupted during the throughput scenarios' } };
  return { scenarioResults };
}
