/**
 * A check's outcome as reports see it, and the verdict that follows from the levels (shared/PROFILE.md):
 * a MUST failure means not certified; SHOULD and PROFILE failures are warnings.
 */
import type { DescribedValue } from './describe-values.ts';
import type { Exchange } from '../http/exchange.ts';
import { LEVELS, type CheckStatus, type Level } from './check.ts';

export interface Evidence {
  /** The exact exchanges the check made, secrets redacted, bodies cut at 4 KiB. */
  exchanges: Exchange[];
  /** What the check compared: expected / actual values, schema errors. */
  details?: Record<string, unknown>;
}

export interface CheckResult {
  id: string;
  suite: string;
  title: string;
  level: Level;
  specRef: string;
  status: CheckStatus;
  durationMs: number;
  /** Failure or error message, the reason for a skip, or (with `vacuous`) what the pass lacked. */
  message?: string;
  /**
   * Set on a `passed` result whose rule was never exercised: the check found nothing that could have broken it
   * (no 429 ever came, nothing was ever delivered, every answer was the same static body). The note says what
   * was missing. A vacuous MUST pass leaves the certification incomplete, like a MUST check that did not run.
   */
  vacuous?: string;
  /**
   * Set on a `skipped` result whose rule does not apply to the target as its config declares it (ownership on a
   * single-account target). Such a MUST check is not "unverified": it leaves the certification complete.
   */
  notApplicable?: true;
  /**
   * Set on a check that ran beside others while it waited (src/conformance/beside.ts): how much of `durationMs`
   * other checks ran too. junit.xml counts those milliseconds once, in theirs.
   */
  besideMs?: number;
  /**
   * Set on a failed PROFILE check: the config key(s) that describe its rule (src/conformance/describe-keys.ts), and
   * whether the run's config already sets one of them away from PROFILE.md's default — then the failure is a fault
   * against the target's own description, otherwise a choice the config can describe.
   */
  describeIn?: { keys: string[]; described: boolean; values?: Record<string, DescribedValue> };
  evidence?: Evidence;
}

/**
 * `incomplete`: no MUST check failed, but at least one MUST rule was not verified (skipped, error, vacuous pass,
 * or the run was interrupted / lost the target): the run cannot certify. `not-evaluated`: no check ran (a report of
 * throughput scenarios or a rate-limit probe only).
 */
/**
 * `selection-passed`: a run of selected checks (report.json `selection`: `--check`, `--suite`, `conformance.suites`,
 * `conformance.skipChecks`) that would have certified had it been the whole catalogue: every selected MUST check
 * passed. Never a certification (src/report/report.ts selectionVerdict); exit 0 like certified.
 */
export type Verdict = 'certified' | 'certified-with-warnings' | 'selection-passed' | 'incomplete' | 'not-certified' | 'not-evaluated';

export interface StatusCounts {
  passed: number;
  failed: number;
  skipped: number;
  errors: number;
  /**
   * Checks that ran but could not decide under the run's measured conditions (status `undecided`). Optional only
   * in reports written before the status existed; summarize always sets it.
   */
  undecided?: number;
  /** Passed results that are vacuous (a subset of `passed`). */
  vacuous: number;
  /**
   * Skipped results whose rule does not apply to the target (`notApplicable`): counted here, not in `skipped`,
   * since nothing was left unverified. Present only when some were.
   */
  notApplicable?: number;
}

export interface Summary extends StatusCounts {
  byLevel: Record<Level, StatusCounts>;
}

const emptyCounts = (): StatusCounts => ({ passed: 0, failed: 0, skipped: 0, errors: 0, undecided: 0, vacuous: 0 });
const COUNT_KEY: Record<CheckStatus, Exclude<keyof StatusCounts, 'vacuous'>> = {
  passed: 'passed',
  failed: 'failed',
  skipped: 'skipped',
  error: 'errors',
  undecided: 'undecided',
};

export function summarize(results: readonly CheckResult[]): Summary {
  const summary: Summary = { ...emptyCounts(), byLevel: { MUST: emptyCounts(), SHOULD: emptyCounts(), PROFILE: emptyCounts() } };
  for (const result of results) {
    if (result.status === 'skipped' && result.notApplicable) {
      summary.notApplicable = (summary.notApplicable ?? 0) + 1;
      const level = summary.byLevel[result.level];
      level.notApplicable = (level.notApplicable ?? 0) + 1;
      continue;
    }
    const key = COUNT_KEY[result.status];
    summary[key] = (summary[key] ?? 0) + 1;
    summary.byLevel[result.level][key] = (summary.byLevel[result.level][key] ?? 0) + 1;
    if (result.status === 'passed' && result.vacuous !== undefined) {
      summary.vacuous++;
      summary.byLevel[result.level].vacuous++;
    }
  }
  return summary;
}

/**
 * MUST checks whose rule went unverified: skipped (not run), error (could not run), undecided (ran, but the run's
 * conditions made the answer unknowable) or passed vacuously. A check skipped as not applicable (its rule does not
 * apply to what the target declares) is not among them: summarize counts it apart, not as skipped.
 */
export function mustNotVerified(summary: Summary): number {
  const must = summary.byLevel.MUST;
  return must.skipped + must.errors + (must.undecided ?? 0) + must.vacuous;
}

/**
 * not-certified: a MUST check failed (the run measured a broken MUST rule).
 * not-evaluated: the run had no checks at all (load, capacity and probe reports) — it neither certifies nor fails.
 * incomplete: no MUST failure, but a MUST rule went unverified (skipped, error, undecided, vacuous) or the run
 *   stopped early (interrupted, target lost): nothing measured says the target is broken, and the run cannot
 *   certify it either. An undecided MUST check is treated exactly like one that did not run: the run's conditions
 *   (not the target) kept it from deciding, so a quieter rerun may decide it.
 * certified-with-warnings: every MUST check passed for real; a SHOULD or PROFILE check failed, errored or was
 *   undecided (a warning either way: it never turns into a pass).
 * certified: every check that ran passed and every MUST check ran and passed for real.
 */
export function verdictOf(summary: Summary, stoppedEarly = false): Verdict {
  if (summary.byLevel.MUST.failed > 0) return 'not-certified';
  if (summary.passed + summary.failed + summary.skipped + summary.errors + (summary.undecided ?? 0) + (summary.notApplicable ?? 0) === 0) return stoppedEarly ? 'incomplete' : 'not-evaluated';
  if (stoppedEarly || mustNotVerified(summary) > 0) return 'incomplete';
  const warnings = LEVELS.some((level) => summary.byLevel[level].failed + summary.byLevel[level].errors + (summary.byLevel[level].undecided ?? 0) > 0);
  return warnings ? 'certified-with-warnings' : 'certified';
}
