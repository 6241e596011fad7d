/**
 * A check's outcome as reports see it, and the verdict that follows from the levels (shared/PROFILE.md):
 * a MUST failure means not certified; SHOULD and PROFILE failures are warnings.
 */
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
  /** Failure or error message, or the reason for a skip. */
  message?: string;
  evidence?: Evidence;
}

/** `not-evaluated`: no check ran (a report of throughput scenarios or a rate-limit probe only). */
export type Verdict = 'certified' | 'certified-with-warnings' | 'not-certified' | 'not-evaluated';

export interface StatusCounts {
  passed: number;
  failed: number;
  skipped: number;
  errors: number;
}

export interface Summary extends StatusCounts {
  byLevel: Record<Level, StatusCounts>;
}

const emptyCounts = (): StatusCounts => ({ passed: 0, failed: 0, skipped: 0, errors: 0 });
const COUNT_KEY: Record<CheckStatus, keyof StatusCounts> = {
  passed: 'passed',
  failed: 'failed',
  skipped: 'skipped',
  error: 'errors',
};

export function summarize(results: readonly CheckResult[]): Summary {
  const summary: Summary = { ...emptyCounts(), byLevel: { MUST: emptyCounts(), SHOULD: emptyCounts(), PROFILE: emptyCounts() } };
  for (const result of results) {
    summary[COUNT_KEY[result.status]]++;
    summary.byLevel[result.level][COUNT_KEY[result.status]]++;
  }
  return summary;
}

/**
 * not-certified: a MUST check failed or could not decide (error), or the run was aborted before finishing.
 * certified-with-warnings: any other failure, error, or a skipped MUST check (a MUST rule went unverified).
 * certified: everything that ran passed and every MUST check ran.
 * not-evaluated: the run had no checks at all (load, capacity and probe reports) — it neither certifies nor fails.
 */
export function verdictOf(summary: Summary, aborted = false): Verdict {
  const must = summary.byLevel.MUST;
  if (aborted || must.failed > 0 || must.errors > 0) return 'not-certified';
  if (summary.passed + summary.failed + summary.skipped + summary.errors === 0) return 'not-evaluated';
  const warnings = LEVELS.some((level) => summary.byLevel[level].failed + summary.byLevel[level].errors > 0);
  return warnings || must.skipped > 0 ? 'certified-with-warnings' : 'certified';
}
