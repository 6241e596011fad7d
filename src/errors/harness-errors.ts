/**
 * Error classes with stable codes (HARNESS_ERR_*). Callers match on `code`, never on message text or class
 * identity across module copies. Each code maps to one exit code, so the CLI's top-level handler is one lookup.
 * docs/errors.md lists every code; test/unit/errors.test.ts keeps it in step with this file.
 */
import { ExitCode, type ExitCodeValue } from './exit-codes.ts';

export interface ConfigIssue {
  /** File the problem is in, when it came from a file. */
  file?: string;
  /** 1-based line and column in that file, when known. */
  line?: number;
  column?: number;
  /** JSON-pointer-like path inside the document, e.g. `credentials.oauth.clientId`. */
  path: string;
  message: string;
  /** Nearest valid key, for misspellings. */
  suggestion?: string;
}

export abstract class HarnessError extends Error {
  abstract readonly code: string;
  abstract readonly exitCode: ExitCodeValue;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** The base of each class below: its code and exit code, stated once where the class is declared. */
function coded<const Code extends string>(code: Code, exitCode: ExitCodeValue) {
  abstract class CodedError extends HarnessError {
    readonly code = code;
    readonly exitCode = exitCode;
  }
  return CodedError;
}

/** Wrong command line: unknown flag, bad value, missing file argument. */
export class UsageError extends coded('HARNESS_ERR_USAGE', ExitCode.Usage) {}

/** A file named on the command line does not exist or cannot be read. */
export class FileNotFoundError extends coded('HARNESS_ERR_FILE_NOT_FOUND', ExitCode.Usage) {
  constructor(readonly file: string, detail = 'no such file') {
    super(`${file}: ${detail}`);
  }
}

/** A config, suite or scenario file is invalid; `issues` holds every problem found, not just the first. */
export class ConfigError extends coded('HARNESS_ERR_CONFIG', ExitCode.InvalidConfig) {
  constructor(readonly issues: readonly ConfigIssue[]) {
    super(issues.map(formatConfigIssue).join('\n'));
  }
}

/** The target did not answer at all (refused, reset before any response, DNS, timeout). */
export class TargetUnreachableError extends coded('HARNESS_ERR_TARGET_UNREACHABLE', ExitCode.TargetUnreachable) {
  constructor(readonly baseUrl: string, detail: string, options?: { cause?: unknown }) {
    super(`target ${baseUrl} is unreachable: ${detail}`, options);
  }
}

/**
 * The target stopped answering during the run: past a bound of consecutive requests without an HTTP response
 * (refused, reset, timed out). The run ends early with the report of what ran; `checkId` is where it stopped.
 */
export class TargetLostError extends coded('HARNESS_ERR_TARGET_LOST', ExitCode.TargetUnreachable) {
  constructor(readonly baseUrl: string, readonly checkId: string, readonly failures: number, lastError: string) {
    super(`target ${baseUrl} lost during check ${checkId}: ${failures} requests in a row got no HTTP response (last: ${lastError}); the run stopped there`);
  }
}

/** A suite named with --suite or in the config does not exist. */
export class UnknownSuiteError extends coded('HARNESS_ERR_UNKNOWN_SUITE', ExitCode.Usage) {}

/** The reference target could not start (port in use, bad option). */
export class TargetStartError extends coded('HARNESS_ERR_TARGET_START', ExitCode.Usage) {}

/** A report file given to `harness compare` is not JSON or not a report.json (schemas/report.schema.json). */
export class InvalidReportError extends coded('HARNESS_ERR_INVALID_REPORT', ExitCode.InvalidConfig) {
  constructor(readonly file: string, readonly problems: readonly string[]) {
    super(`${file}: not a valid report.json:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  }
}

/** Every class, for the table-driven test and docs/errors.md. */
export const ERROR_CLASSES = [
  UsageError,
  FileNotFoundError,
  ConfigError,
  TargetUnreachableError,
  TargetLostError,
  UnknownSuiteError,
  TargetStartError,
  InvalidReportError,
] as const;

export function formatConfigIssue(issue: ConfigIssue): string {
  const where = issue.file
    ? `${issue.file}${issue.line ? `:${issue.line}${issue.column ? `:${issue.column}` : ''}` : ''}`
    : '';
  const path = issue.path ? `${issue.path}: ` : '';
  const hint = issue.suggestion ? ` (did you mean "${issue.suggestion}"?)` : '';
  return `${where ? `${where}: ` : ''}${path}${issue.message}${hint}`;
}

export function isHarnessError(err: unknown): err is HarnessError {
  return err instanceof HarnessError;
}
