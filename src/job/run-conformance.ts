/**
 * One conformance run, start to finish: select suites → open the target → preflight → run the checks →
 * build the report → hand it to the reporters. Whatever happens after the target is open, the target is
 * closed and a report of what was measured is written.
 */
import { join } from 'node:path';
import { collectSecrets } from '../config/secrets.ts';
import type { FrozenConfig } from '../config/types.ts';
import { createContext } from '../conformance/context.ts';
import type { CheckRegistry } from '../conformance/registry.ts';
import type { CheckResult } from '../conformance/result.ts';
import { runChecks } from '../conformance/runner.ts';
import { SchemaValidator } from '../conformance/schema-validator.ts';
import { TrafficLog } from '../conformance/traffic.ts';
import { coverageOf } from '../conformance/coverage.ts';
import { isHarnessError } from '../errors.ts';
import { EventBus, type Reporter } from '../events.ts';
import { ExitCode, type ExitCodeValue } from '../exit-codes.ts';
import { HttpClient } from '../http/client.ts';
import { SecretRegistry } from '../http/redact.ts';
import { HtmlReporter } from '../reporters/html-reporter.ts';
import { JsonReporter } from '../reporters/json-reporter.ts';
import { JunitReporter } from '../reporters/junit-reporter.ts';
import { buildReport, newRunId, type Report } from '../reporters/report.ts';
import { HARNESS_VERSION } from '../version.ts';
import { openTarget } from './open-target.ts';
import { assertReachable } from './preflight.ts';

export interface ConformanceJobOptions {
  config: FrozenConfig;
  registry: CheckRegistry;
  /** Reporters besides report.json (the console reporter, later HTML and JUnit). */
  reporters?: Reporter[];
  /** Where file reporters say what they wrote. @default stderr */
  log?: (line: string) => void;
  /** Aborts between checks; the report says so. */
  signal?: AbortSignal;
}

export interface JobOutcome {
  report: Report;
  /** reports/<run-id> */
  runDir: string;
  exitCode: ExitCodeValue;
}

export async function runConformance(options: ConformanceJobOptions): Promise<JobOutcome> {
  const { config, registry } = options;
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  // Usage and config mistakes surface before any traffic.
  const suites = registry.select(config.conformance.suites);
  registry.assertKnownChecks(config.conformance.skipChecks, 'conformance.skipChecks', config.source);
  const schemas = new SchemaValidator({ replacements: config.api.schemas, errorSchema: config.api.errorSchema });

  const secrets = new SecretRegistry(collectSecrets(config));
  const runId = newRunId();
  const runDir = join(config.report.outDir, runId);
  const startedAt = new Date().toISOString();
  const bus = new EventBus([...(options.reporters ?? []), new JsonReporter(secrets, log), new HtmlReporter(secrets, log), new JunitReporter(secrets, log)]);

  const target = await openTarget(config);
  // The embedded target's generated credentials are secrets too.
  for (const value of collectSecrets({ ...config, credentials: target.credentials } as FrozenConfig)) secrets.add(value);
  const http = new HttpClient({ baseUrl: target.info.baseUrl, timeoutMs: config.target.timeoutMs });
  const results: CheckResult[] = [];
  let aborted: { code: string; message: string } | undefined;
  try {
    await bus.emit({
      type: 'run-started',
      runId,
      startedAt,
      target: target.info,
      suites: suites.map((s) => ({ name: s.name, title: s.title, checks: s.checks.length })),
    });
    await assertReachable(http, config.api.paths.listMessages);
    const ctx = createContext({ config, target: target.info, http, credentials: target.credentials, schemas, secrets, traffic: new TrafficLog() });
    results.push(
      ...(await runChecks({
        suites,
        ctx,
        bus,
        skipChecks: new Set(config.conformance.skipChecks),
        checkTimeoutMs: config.conformance.checkTimeoutMs,
        ...(options.signal ? { signal: options.signal } : {}),
      })),
    );
    if (options.signal?.aborted) aborted = { code: 'HARNESS_ABORTED', message: 'interrupted before every check ran' };
  } catch (err) {
    if (!isHarnessError(err)) throw err;
    aborted = { code: err.code, message: secrets.redactText(err.message) };
  } finally {
    await http.close();
    await target.close();
  }

  const report = buildReport({
    runId,
    startedAt,
    finishedAt: new Date().toISOString(),
    harnessVersion: HARNESS_VERSION,
    target: target.info,
    checks: results,
    coverage: coverageOf(suites.flatMap((suite) => suite.checks)),
    ...(aborted ? { aborted } : {}),
  });
  await bus.emit({ type: 'run-finished', report, outDir: runDir });
  return { report, runDir, exitCode: exitCodeOf(report) };
}

function exitCodeOf(report: Report): ExitCodeValue {
  if (report.run.aborted?.code === 'HARNESS_ERR_TARGET_UNREACHABLE') return ExitCode.TargetUnreachable;
  return report.verdict === 'not-certified' ? ExitCode.MustFailed : ExitCode.Certified;
}
