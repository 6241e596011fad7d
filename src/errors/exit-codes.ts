/**
 * Process exit codes. These are API: CI jobs branch on them, so a value never changes meaning.
 * The numbers for thresholds and config follow k6 (errext/exitcodes) so teams that know k6 read them at once.
 * docs/reference/exit-codes.md lists the same table; test/unit/errors.test.ts keeps the two in step.
 *
 * `harness run` measures conformance and throughput in one run, so several codes can apply; the most severe wins
 * (src/job/run-job.ts exitCodeOf): Interrupted > TargetUnreachable (nothing, or not everything, could be
 * measured) > MustFailed (not certified) > Incomplete (a MUST rule went unverified) > ThresholdsCrossed (certified,
 * but a scenario threshold was crossed) > Certified. The reports still list every crossed threshold.
 */
export const ExitCode = {
  /**
   * The run finished and the target is certified (SHOULD/PROFILE warnings allowed). A run of selected checks
   * (`--check`, `--suite`, `conformance.suites`, `conformance.skipChecks`) whose selected MUST checks all passed also
   * ends 0 — the command did what it was asked, and a CI step running one suite must not go red for passing — but
   * its verdict is `selection-passed` ("PASSED — 2 of 163 checks selected; not a certification"), never `certified`.
   */
  Certified: 0,
  /**
   * At least one MUST check failed: the target is not certified. (A MUST check that errored or could not decide
   * is not a failure: that is Incomplete.)
   */
  MustFailed: 1,
  /** The command line was wrong: unknown flag, missing argument, file not found. */
  Usage: 2,
  /**
   * The target could not be reached at all (connection refused, DNS, TLS, timeout on the first request), or was
   * lost during the run (consecutive transport failures): the report says where the run stopped.
   */
  TargetUnreachable: 3,
  /**
   * No MUST check failed, but the certification is incomplete: a MUST check did not run (skipped, error, no
   * credential for it), passed vacuously, or could not decide (status `undecided`: it ran, but the uncertainty
   * its tolerance derives from the run's measured conditions — event-loop stalls, round-trip spread, send lag —
   * covered the effect it judges; a quieter rerun may decide it). Verdict `incomplete`. A SHOULD or PROFILE check
   * that could not decide is a warning (certified-with-warnings, exit 0), never a pass and never a failure.
   */
  Incomplete: 4,
  /** A throughput threshold was crossed (for `harness run`: only when the target is otherwise certified). */
  ThresholdsCrossed: 99,
  /** Stopped by SIGINT or SIGTERM (every command): the partial report is written; same number as k6's external abort. */
  Interrupted: 105,
  /** The config, suite or scenario file is invalid. */
  InvalidConfig: 104,
  /** A bug in the harness itself; the message says where to report it. */
  Internal: 70,
} as const;

export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/** One line per code for `--help` and the docs table (docs/reference/exit-codes.md). */
export const EXIT_CODE_DOCS: ReadonlyArray<readonly [ExitCodeValue, string]> = [
  [ExitCode.Certified, 'certified (SHOULD and PROFILE warnings allowed); a run of selected checks: every selected MUST check passed (verdict selection-passed, not a certification); for validate/serve: success'],
  [ExitCode.MustFailed, 'a MUST check failed: not certified; for compare: a budget was exceeded'],
  [ExitCode.Usage, 'usage error: unknown command or flag, bad flag value, missing file'],
  [ExitCode.TargetUnreachable, 'the target could not be reached, or was lost during the run'],
  [ExitCode.Incomplete, 'no MUST check failed, but a MUST check did not run, could not decide, or passed vacuously: certification incomplete'],
  [ExitCode.ThresholdsCrossed, 'a throughput threshold was crossed'],
  [ExitCode.Interrupted, 'interrupted by SIGINT or SIGTERM; the partial report was written'],
  [ExitCode.InvalidConfig, 'invalid config, suite or scenario file'],
  [ExitCode.Internal, 'internal error in the harness (a bug: please report it)'],
];
