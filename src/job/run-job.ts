/**
 * `runJob`: the whole `harness run`, start to finish — conformance checks, then the throughput scenarios and the
 * webhook delivery under load against the same target: select suites → the run's session (session.ts: out-dir,
 * target, secrets, preflight) → run the checks → run-end hooks → scenarios (when given) → the report and its
 * files. src/index.ts also exports it as runConformance. Whatever happens after the target is open, the target is
 * closed and a report of what was measured is written; the exit code is the report's (exitCodeOf).
 */
import { RunConditions, type ConditionsSnapshot } from '../conformance/conditions.ts';
import { createCheckContext, type RunContext, type RunFindings } from '../conformance/context.ts';
import type { CheckRegistry, Suite } from '../conformance/registry.ts';
import type { CheckResult } from '../conformance/result.ts';
import { runChecks } from '../conformance/runner.ts';
import { SchemaValidator } from '../conformance/schema-validator.ts';
import { TrafficLog, type TrafficLimits } from '../conformance/traffic.ts';
import { securityOf } from '../conformance/owasp.ts';
import { coverageOf } from '../conformance/coverage.ts';
import type { FrozenConfig } from '../config/types.ts';
import { isHarnessError } from '../errors/harness-errors.ts';
import type { ExitCodeValue } from '../errors/exit-codes.ts';
import { HttpClient } from '../http/client.ts';
import { withAbortSignal } from '../http/deadline.ts';
import { PoliteState } from '../http/polite-wait.ts';
import type { ProgressSink } from '../load/progress.ts';
import type { ScenarioResult } from '../load/result.ts';
import { scenariosWithCredentials } from '../load/run-scenarios.ts';
import type { Scenario } from '../load/scenario/types.ts';
import { readRateLimit } from '../ratelimit/headers.ts';
import type { Reporter } from '../report/events.ts';
import { exitCodeOfReport } from '../report/headline.ts';
import type { Report, Selection } from '../report/report.ts';
import { writeHar } from './har.ts';
import { assertWritableFile } from './out-dir.ts';
import { logCrossed, scenarioPhase } from './scenario-phase.ts';
import { openSession, type Session } from './session.ts';
import { startWebhooksUnderLoad, withUnderLoad } from './webhooks-under-load.ts';
import type { ReportFileOptions } from './write-reports.ts';

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
  /** Options of the report files' printers (`--junit-warnings-as-failures`). @default none */
  reportFiles?: ReportFileOptions;
}

export interface JobOutcome {
  report: Report;
  /** reports/<run-id> */
  runDir: string;
  exitCode: ExitCodeValue;
}

/** What the run measured, for its report. */
interface Measured {
  results: CheckResult[];
  findings: RunFindings;
  scenarioResults: ScenarioResult[];
  conditions: ConditionsSnapshot;
}

export async function runJob(options: RunJobOptions): Promise<JobOutcome> {
  const { config, registry } = options;
  // Usage and config mistakes surface before any traffic.
  const suites = registry.select(config.conformance.suites);
  registry.assertKnownChecks(config.conformance.skipChecks, 'conformance.skipChecks', config.source);
  const schemas = new SchemaValidator({ replacements: config.api.schemas, errorSchema: config.api.errorSchema });
  const harFile = options.harFile;
  const session = await openSession({ ...options, ...(harFile ? { beforeTraffic: () => assertWritableFile(harFile, '--har') } : {}) });
  const measured = await session.run(async () => {
    // Before any traffic: a scenario whose credential this target lacks is skipped, or a config error (exit 104).
    const scenarios = scenariosWithCredentials(options.scenarios ?? [], session.target.credentials, options.missingCredential ?? 'skip', session.log);
    return checksThenScenarios(session, options, suites, schemas, scenarios);
  });
  const { report, runDir, exitCode } = await session.finish({
    checks: measured.results,
    coverage: coverageOf(suites.flatMap((suite) => suite.checks)),
    security: securityOf(suites.flatMap((suite) => suite.checks), measured.results),
    ...selectionOf(registry, suites, config),
    ...(measured.scenarioResults.length > 0 ? { scenarios: measured.scenarioResults } : {}),
    ...measured.findings,
    conditions: measured.conditions,
  });
  return { report, runDir, exitCode };
}

/**
 * The checks, the run-end hooks, then the scenarios (after the hooks: the suite's receiver, with its deliberate
 * 500s, is gone by then), and only when the checks ran to the end. The run measures its own conditions from
 * before its first request (conditions.ts): the checks' timing tolerances come from them, and report.json
 * records them.
 */
async function checksThenScenarios(session: Session, options: RunJobOptions, suites: readonly Suite[], schemas: SchemaValidator, scenarios: readonly Scenario[]): Promise<Measured> {
  const conditions = new RunConditions().start();
  const scenarioResults: ScenarioResult[] = [];
  let checks: ConformanceOutcome;
  try {
    checks = await conformancePhase(session, options, suites, schemas, conditions);
    if (checks.done && !session.stopped && scenarios.length > 0) {
      // A second webhook receiver during the scenarios: delivery latency under load (webhooks-under-load.ts).
      const { target, config, secrets, log } = session;
      const underLoad = await startWebhooksUnderLoad({ config, baseUrl: target.info.baseUrl, apiKey: target.credentials.apiKey, checks: checks.results, secrets, log });
      try {
        scenarioResults.push(...(await loadPhase(session, options, scenarios)));
      } finally {
        const webhooks = withUnderLoad(checks.findings.webhooks, await underLoad?.finish());
        if (webhooks) checks.findings = { ...checks.findings, webhooks };
      }
    }
  } finally {
    conditions.stop();
  }
  return { results: checks.results, findings: checks.findings, scenarioResults, conditions: conditions.snapshot() };
}

interface ConformanceOutcome {
  results: CheckResult[];
  findings: RunFindings;
  /** Every check ran (the run was not stopped before the end). */
  done: boolean;
}

/** Preflight and the checks, then the run-end hooks and the HAR file, whatever ended the checks. */
async function conformancePhase(session: Session, options: RunJobOptions, suites: readonly Suite[], schemas: SchemaValidator, conditions: RunConditions): Promise<ConformanceOutcome> {
  const { config } = session;
  // Conformance traffic: a 429 no polite wait gets past ends the check as "not run: rate limited" (polite-wait.ts).
  const polite = new PoliteState({ throwWhenLimited: true, readLimit: (headers) => readRateLimit(headers, config.api.rateLimitHeaders, Date.now()) });
  const http = new HttpClient({
    baseUrl: session.target.info.baseUrl,
    timeoutMs: config.target.timeoutMs,
    polite,
    onExchange: (exchange) => {
      if (exchange.response) conditions.recordRoundTrip(exchange.durationMs);
    },
  });
  const results: CheckResult[] = [];
  let ctx: RunContext | undefined;
  let done = false;
  let findings: RunFindings = {};
  try {
    await session.bus.emit({ type: 'run-started', runId: session.runId, startedAt: session.startedAt, target: session.target.info, suites: suites.map((s) => ({ name: s.name, title: s.title, checks: s.checks.length })) });
    // An interruption during the preflight is an interruption, not an unreachable target.
    if (await session.reachable(http, 'interrupted before any check ran')) {
      ctx = createCheckContext({ config, target: session.target.info, http, credentials: session.target.credentials, schemas, secrets: session.secrets, traffic: new TrafficLog(options.trafficLimits), conditions });
      results.push(...(await checks(session, suites, ctx)));
      session.noteInterruption('interrupted before every check ran');
      done = true;
    }
  } catch (err) {
    session.stopOn(err, 'interrupted before any check ran');
  } finally {
    // Whatever ended the checks, a live progress line ends here, before the hooks, the scenarios or anything they log.
    await session.bus.emit({ type: 'checks-finished' });
    // A failure here (a HAR file that cannot be written after all) must still close the client (and the session
    // the target): an embedded target left listening would keep the process alive after "internal error".
    try {
      findings = await endRun(session, options, ctx);
    } finally {
      await http.close();
    }
  }
  return { results, findings, done };
}

function checks(session: Session, suites: readonly Suite[], ctx: RunContext): Promise<CheckResult[]> {
  const { config } = session;
  return runChecks({
    suites,
    ctx,
    bus: session.bus,
    skipChecks: new Set(config.conformance.skipChecks),
    checkTimeoutMs: config.conformance.checkTimeoutMs,
    ...(session.signal ? { signal: session.signal } : {}),
    // The console reporter says "run aborted: …" with this message once the report is built.
    onTargetLost: (lost) => session.stop({ code: lost.code, message: lost.message }),
  });
}

/**
 * Run-end hooks (closing a webhook receiver, deleting what checks registered) still talk to the target, within a
 * deadline: after a lost target or an interruption they must not hold the report back. Then the HAR file.
 */
async function endRun(session: Session, options: RunJobOptions, ctx: RunContext | undefined): Promise<RunFindings> {
  if (!ctx) return {};
  const { checkTimeoutMs } = session.config.conformance;
  const endRunMs = session.stopped || session.interrupted ? Math.min(5000, checkTimeoutMs) : checkTimeoutMs;
  const findings = await withAbortSignal(AbortSignal.timeout(endRunMs), () => ctx.endRun(session.log));
  if (options.harFile) {
    await writeHar(options.harFile, ctx.traffic.exchanges, session.secrets, ctx.traffic.total);
    session.log(`har: ${options.harFile}`);
  }
  return findings;
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
 * threshold crossed (99) > certified (0): one precedence for the exit code and for what every report says first.
 */
export function exitCodeOf(report: Report): ExitCodeValue {
  return exitCodeOfReport(report);
}

/** The throughput scenarios against the run's open target; an interruption or a harness error ends the run early. */
async function loadPhase(session: Session, options: RunJobOptions, scenarios: readonly Scenario[]): Promise<ScenarioResult[]> {
  try {
    const { workers } = session.config.load;
    // load.workers (the config) applies to harness run's scenarios too; undefined leaves each scenario's own.
    const outcome = await scenarioPhase(session, { label: 'scenarios', scenarios, ...(workers !== undefined ? { workers } : {}), ...(options.progress ? { progress: options.progress } : {}) });
    logCrossed(outcome.results, session.log);
    session.noteInterruption('interrupted during the throughput scenarios');
    return outcome.results;
  } catch (err) {
    if (!isHarnessError(err)) throw err;
    session.stop({ code: err.code, message: err.message });
    return [];
  }
}
