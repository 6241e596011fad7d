/**
 * The library API. Everything the CLI does is available here, so a test suite or a CI script can drive the
 * harness without spawning a process.
 */
export { ExitCode, EXIT_CODE_DOCS, type ExitCodeValue } from './errors/exit-codes.ts';
export * from './errors/harness-errors.ts';
export { loadConfig, defaultConfig, validateFile } from './config/index.ts';
export type * from './config/types.ts';
export { buildApp, startReferenceTarget, credentialBanner } from './target/index.ts';
export type * from './target/types.ts';
export { runJob, type RunJobOptions, type JobOutcome } from './job/run-job.ts';
/** @deprecated The earlier name of `runJob` (it runs the scenarios too); kept so existing callers keep working. */
export { runJob as runConformance, type RunJobOptions as ConformanceJobOptions } from './job/run-job.ts';
export { CheckRegistry, type Suite } from './conformance/registry.ts';
export { defineCheck, type Check, type Level, type CheckStatus } from './conformance/check.ts';
export { fail, skip, undecided, CheckFailure, CheckSkipped, CheckUndecided } from './conformance/outcomes.ts';
export { RunConditions, type ConditionsSnapshot } from './conformance/conditions.ts';
export { requiresProfile, requiresSandbox, requiresCredential, withPrecondition, guarded } from './conformance/preconditions.ts';
export type { CheckContext, TargetInfo } from './conformance/context.ts';
export type { CheckResult, Evidence, Summary, Verdict } from './conformance/result.ts';
export type { HarnessEvent, Reporter } from './report/events.ts';
export type { Report, Selection } from './report/report.ts';
export { ConsoleReporter } from './reporters/console-reporter.ts';
export { HttpClient, TransportError, type HttpResponse, type RequestOptions } from './http/client.ts';
export { SecretRegistry, REDACTED } from './http/redact.ts';
export { BUILT_IN_SUITES, createDefaultRegistry } from '../suites/index.ts';

// Throughput: scenarios (k6 vocabulary), `harness load`, `harness capacity`, `harness export k6`.
export { loadScenarios } from './load/scenario/select.ts';
export { loadScenarioFile, checkScenarioText } from './load/scenario/load.ts';
export { shippedScenarioNames, SHIPPED_SCENARIOS_DIR } from './load/scenario/resolve.ts';
export type { Scenario, Stage, RequestSpec } from './load/scenario/types.ts';
export type { ScenarioOverrides } from './load/scenario/overrides.ts';
export { runLoadJob, type LoadJobOptions, type LoadJobOutcome } from './job/load-job.ts';
export { runScenarios, type RunScenariosOptions, type RunScenariosOutcome } from './load/run-scenarios.ts';
export { runCapacityJob, type CapacityJobOptions } from './job/capacity-job.ts';
export { exportK6Script, requestMixCode, type IterationCode, type K6Code, type K6ExportOptions, type K6Language } from './load/export/k6-script.ts';
export { k6OperatorBundle, type K6OperatorBundle, type K6OperatorOptions } from './load/export/k6-operator.ts';
// `harness import k6`: one k6 summary, or several runners' samples merged into one report judged on the union.
export { importK6, importK6Runs, type ImportK6Options, type ImportK6RunsOptions, type ImportK6RunsOutcome } from './job/import-k6.ts';
export { mergeK6Runners, type MergeInput, type MergeOutcome } from './k6/merge.ts';
export { createProgress, silentProgress, type ProgressSink, type ProgressSample } from './load/progress.ts';
export { parseDuration } from './load/duration.ts';
export { thresholdsCrossed, type ScenarioResult, type CapacityResult, type CapacityStep, type ThresholdResult, type EncodedHistograms } from './load/result.ts';
// Exact merging of load results (workers, runs): snapshots of the HDR recorder added together.
export { mergeSnapshots, Recorder, type RecorderSnapshot, type RecorderOptions } from './load/metrics/recorder.ts';

// Rate limits: `harness probe ratelimit` and the header readers.
export { runProbeJob, PROBE_CREDENTIALS, type ProbeJobOptions, type ProbeCredentialName } from './job/probe-job.ts';
export { probeRateLimit, formatProbe } from './ratelimit/probe/index.ts';
export type { ProbeResult } from './ratelimit/probe/index.ts';
export { readRateLimit, readAllRateLimit, detectStyle, detectFormats, HEADER_FORMATS, type RateLimitReading, type HeaderFormat, type QuotaPolicy } from './ratelimit/headers.ts';

// Reports: the model, the three file reporters and `harness compare`.
export { buildReport, newRunId, REPORT_SCHEMA_VERSION, type ReportInput } from './report/report.ts';
export { reportIssues, isReport } from './report/report-schema.ts';
export { JsonReporter, reportJson } from './reporters/json-reporter.ts';
export { HtmlReporter, reportHtml } from './reporters/html-reporter.ts';
export { JunitReporter } from './reporters/junit-reporter.ts';
export { buildJunit } from './reporters/junit/build.ts';
export { writeReports, fileReporters, runSecrets } from './job/write-reports.ts';
export { runCompare, type CompareOptions, type CompareOutcome } from './compare/run-compare.ts';
export { parseBudgets, type Budget } from './compare/budget.ts';
export { loadReport } from './compare/load-report.ts';
export type { ReadReport } from './report/report.ts';

// Webhooks: the receiver a test registers with a target, signature verification, delivery statistics.
export { WebhookReceiver, type ReceivedDelivery, type ReceiverOptions } from './webhooks/receiver.ts';
export { verifySignature, type SignatureVerdict, type SignedDelivery } from './webhooks/verify-signature.ts';
export { webhookStats, type WebhookStats } from './webhooks/stats.ts';

// The OpenAPI 3.1 document of the API as a config describes it (`harness export openapi`, the /sandbox explorer).
export { buildOpenApiDocument, type OpenApiOptions } from './openapi/index.ts';
