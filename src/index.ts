/**
 * The library API. Everything the CLI does is available here, so a test suite or a CI script can drive the
 * harness without spawning a process.
 */
export { ExitCode, EXIT_CODE_DOCS, type ExitCodeValue } from './exit-codes.ts';
export * from './errors.ts';
export { loadConfig, defaultConfig, validateFile } from './config/index.ts';
export type * from './config/types.ts';
export { buildApp, startReferenceTarget, credentialBanner } from './target/index.ts';
export type * from './target/types.ts';
export { runConformance, type ConformanceJobOptions, type JobOutcome } from './job/run-conformance.ts';
export { CheckRegistry, type Suite } from './conformance/registry.ts';
export { defineCheck, fail, skip, CheckFailure, CheckSkipped, type Check, type Level, type CheckStatus } from './conformance/check.ts';
export { requiresProfile, requiresSandbox, requiresCredential, withPrecondition, guarded } from './conformance/preconditions.ts';
export type { CheckContext, TargetInfo } from './conformance/context.ts';
export type { CheckResult, Evidence, Summary, Verdict } from './conformance/result.ts';
export type { HarnessEvent, Reporter } from './events.ts';
export type { Report } from './reporters/report.ts';
export { ConsoleReporter } from './reporters/console-reporter.ts';
export { HttpClient, TransportError, type HttpResponse, type RequestOptions } from './http/client.ts';
export { SecretRegistry, REDACTED } from './http/redact.ts';
export { BUILT_IN_SUITES, createDefaultRegistry } from '../suites/index.ts';
