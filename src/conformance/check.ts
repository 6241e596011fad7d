/**
 * A check is one small module: `{ id, suite, title, level, specRef, run }`. `run` returns on pass and throws
 * `CheckFailure` (with a message and optional details) on failure, `CheckSkipped` when a precondition does not
 * hold, or `CheckUndecided` when it ran but the run's measured conditions (event-loop stalls, round-trip spread,
 * send lag: conditions.ts) make its time-dependent answer unknowable (those throwables: outcomes.ts). Anything
 * else thrown is recorded as an `error` (the check could not run). Evidence — the exact exchanges — is attached
 * by the runner, never assembled by the check.
 */
import type { FrozenConfig } from '../config/types.ts';
import type { CheckContext } from './context.ts';
import type { CredentialName } from './recoveries.ts';

/** MUST: SERVICE-SPEC.md says it. SHOULD: a public standard. PROFILE: PROFILE.md's choice (see shared/PROFILE.md). */
export type Level = 'MUST' | 'SHOULD' | 'PROFILE';
export const LEVELS: readonly Level[] = ['MUST', 'SHOULD', 'PROFILE'];

/**
 * The OWASP API Security Top 10 (2023) items a check covers, for the report's Security block: API1 broken
 * object-level authorization … API10 unsafe consumption of APIs.
 */
export type OwaspItem =
  | 'API1:2023'
  | 'API2:2023'
  | 'API3:2023'
  | 'API4:2023'
  | 'API5:2023'
  | 'API6:2023'
  | 'API7:2023'
  | 'API8:2023'
  | 'API9:2023'
  | 'API10:2023';
export const OWASP_ITEMS: readonly OwaspItem[] = [
  'API1:2023',
  'API2:2023',
  'API3:2023',
  'API4:2023',
  'API5:2023',
  'API6:2023',
  'API7:2023',
  'API8:2023',
  'API9:2023',
  'API10:2023',
];

/**
 * `undecided`: the check ran and measured, but the measurement's uncertainty under this run's conditions covers
 * the effect it judges (its message says which numbers). Never a pass, never a failure; counted apart.
 */
export type CheckStatus = 'passed' | 'failed' | 'skipped' | 'error' | 'undecided';

export interface Check {
  /** Stable, dotted: `<suite>.<what>`. Report consumers and `skipChecks` key on it. */
  id: string;
  suite: string;
  title: string;
  level: Level;
  /** Where the rule comes from: "SERVICE-SPEC §5 rule 5", "RFC 6750 §3", "PROFILE Authentication". */
  specRef: string;
  /** SERVICE-SPEC clauses this check tests (ids of spec-clauses.ts), for the coverage matrix. */
  clauses: readonly string[];
  /** OWASP API Security Top 10 (2023) items this check covers (the report's Security block). @default none */
  owasp?: readonly OwaspItem[];
  /**
   * Requests the check needs, for checks that make many (pagination walks, seeding): the runner gives it at
   * least the time those take at the quota the target announces or the config states (budget.ts).
   */
  requests?: number | ((config: FrozenConfig) => number);
  /**
   * Suites this check may run beside, for a check that mostly waits for the target to change by itself (a token
   * to expire): suites that change nothing it relies on and judge nothing it sends. The runner starts it when
   * the run reaches the first of them after its own suite and goes on with their checks while it waits
   * (beside.ts). @default none: it runs in its place, alone
   */
  besideSuites?: readonly string[];
  /**
   * Credentials whose quota the check starts by exhausting itself: a quota an earlier check left spent
   * (`ctx.recoveries`) need not recover before it runs (recoveries.ts). @default none
   */
  exhausts?: readonly CredentialName[];
  run(ctx: CheckContext): Promise<void>;
}

/** Identity helper that gives check literals their type. */
export function defineCheck(check: Check): Check {
  return check;
}
