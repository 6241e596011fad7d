/**
 * One run's lifecycle, shared by `run`, `load`, `capacity` and `probe`: out-dir check → run id → open target →
 * secrets → redacting log → preflight (with the signal) → the command's work, the target closed whatever happens →
 * build the report → write the report files → exit code. Why a run stopped early (interrupted, unreachable, lost,
 * a harness error) is recorded here, once, and the exit code is the report's (src/report/headline.ts), so the
 * banner, the files and the process always agree.
 */
import { join } from 'node:path';
import type { FrozenConfig } from '../config/types.ts';
import { isHarnessError } from '../errors/harness-errors.ts';
import type { ExitCodeValue } from '../errors/exit-codes.ts';
import type { HttpClient } from '../http/client.ts';
import type { SecretRegistry } from '../http/redact.ts';
import { EventBus, type Reporter } from '../report/events.ts';
import { exitCodeOfReport } from '../report/headline.ts';
import { buildReport, newRunId, type Report, type ReportInput } from '../report/report.ts';
import { redactingReporter } from '../reporters/redacting-reporter.ts';
import { silent } from '../util/silent.ts';
import { openTarget, type OpenTarget } from './open-target.ts';
import { assertWritableOutDir } from './out-dir.ts';
import { assertReachable } from './preflight.ts';
import { fileReporters, runSecrets, type ReportFileOptions } from './write-reports.ts';

export interface SessionOptions {
  config: FrozenConfig;
  /** Where the job's lines go; every line passes the run's secrets first. @default nothing is printed */
  log?: (line: string) => void;
  /** SIGINT/SIGTERM: the preflight and the work stop, and the report says the run was interrupted. */
  signal?: AbortSignal;
  /** Options of the report files' printers (junit.xml's warnings as failures). */
  reportFiles?: ReportFileOptions;
  /** Reporters besides the report files (the console); they see every event with its strings redacted. */
  reporters?: readonly Reporter[];
  /** More checks before any traffic, after the out-dir's (`run --har`: the HAR file is writable). */
  beforeTraffic?: () => Promise<void>;
}

/** Why a run stopped early: report.json's `run.aborted`. */
export interface Stop {
  code: string;
  message: string;
}

export const INTERRUPTED = 'HARNESS_ABORTED';
const TARGET_STOPS = new Set(['HARNESS_ERR_TARGET_UNREACHABLE', 'HARNESS_ERR_TARGET_LOST']);

export type SessionReportInput = Omit<ReportInput, 'runId' | 'startedAt' | 'target' | 'aborted'>;

export interface SessionOutcome {
  report: Report;
  /** reports/<run-id> */
  runDir: string;
  /** reports/<run-id>/report.json */
  file: string;
  exitCode: ExitCodeValue;
}

export async function openSession(options: SessionOptions): Promise<Session> {
  // Before any traffic: a run that cannot write its report is a wasted run.
  await assertWritableOutDir(options.config.report.outDir);
  await options.beforeTraffic?.();
  const runId = newRunId();
  const startedAt = new Date().toISOString();
  const target = await openTarget(options.config);
  return new Session(options, runId, startedAt, target);
}

export class Session {
  readonly config: FrozenConfig;
  readonly runDir: string;
  /** The config's secrets and the credentials in use (the embedded target's generated ones are secrets too). */
  readonly secrets: SecretRegistry;
  /** The file reporters first: they log the files they wrote before the console's verdict line, the run's last. */
  readonly bus: EventBus;
  readonly signal: AbortSignal | undefined;
  readonly #rawLog: (line: string) => void;
  #stop: Stop | undefined;

  constructor(options: SessionOptions, readonly runId: string, readonly startedAt: string, readonly target: OpenTarget) {
    this.config = options.config;
    this.runDir = join(options.config.report.outDir, runId);
    this.signal = options.signal;
    this.#rawLog = options.log ?? silent;
    this.secrets = runSecrets(options.config, target.credentials);
    const others = (options.reporters ?? []).map((reporter) => redactingReporter(reporter, this.secrets));
    this.bus = new EventBus([...fileReporters(this.secrets, this.log, options.reportFiles), ...others]);
  }

  /** Every line through the run's secrets (redact.ts: every encoding). */
  readonly log = (line: string): void => this.#rawLog(this.secrets.redactText(line));

  get interrupted(): boolean {
    return this.signal?.aborted === true;
  }

  get stopped(): Stop | undefined {
    return this.#stop;
  }

  /** Records why the run stopped early: an interruption replaces any other reason, otherwise the first one stays. */
  stop(reason: Stop): void {
    const redacted = { code: reason.code, message: this.secrets.redactText(reason.message) };
    if (!this.#stop || (reason.code === INTERRUPTED && this.#stop.code !== INTERRUPTED)) this.#stop = redacted;
  }

  /** When the signal has fired, the run was interrupted, in these words. */
  noteInterruption(message: string): void {
    if (this.interrupted) this.stop({ code: INTERRUPTED, message });
  }

  /** What ended a phase: an interruption, or a harness error (unreachable, lost …); anything else is a bug, rethrown. */
  stopOn(err: unknown, interruptedMessage: string): void {
    if (this.interrupted) this.stop({ code: INTERRUPTED, message: interruptedMessage });
    else if (isHarnessError(err)) this.stop({ code: err.code, message: err.message });
    else throw err;
  }

  /** Does the target answer HTTP at all (preflight.ts)? False, with the reason recorded, when it does not. */
  async reachable(http: HttpClient, interruptedMessage: string): Promise<boolean> {
    try {
      await assertReachable(http, this.config.api.paths.listMessages, { deadlineMs: this.config.target.timeoutMs, ...(this.signal ? { signal: this.signal } : {}) });
      return true;
    } catch (err) {
      this.stopOn(err, interruptedMessage);
      return false;
    }
  }

  /** The command's work; the target is closed whatever happens. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } finally {
      await this.target.close();
    }
  }

  /** Builds the report with why the run stopped, writes the files (and tells the other reporters), decides the exit code. */
  async finish(input: SessionReportInput): Promise<SessionOutcome> {
    const report = buildReport({ ...input, runId: this.runId, startedAt: this.startedAt, target: this.target.info, ...(this.#stop ? { aborted: this.#stop } : {}) });
    await this.bus.emit({ type: 'run-finished', report, outDir: this.runDir });
    return { report, runDir: this.runDir, file: join(this.runDir, 'report.json'), exitCode: exitCodeOfReport(report) };
  }

  /** "error: …" for a target that was unreachable or lost (an interruption says itself in the report's banner). */
  sayStopped(): void {
    if (this.#stop && TARGET_STOPS.has(this.#stop.code)) this.log(`error: ${this.#stop.message}`);
  }
}
