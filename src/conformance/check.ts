/**
 * A check is one small module: `{ id, suite, title, level, specRef, run }`. `run` returns on pass and throws
 * `CheckFailure` (with a message and optional details) on failure, `CheckSkipped` when a precondition does not
 * hold, or `CheckUndecided` when it ran but the run's measured conditions (event-loop stalls, round-trip spread,
 * send lag: conditions.ts) make its time-dependent answer unknowable. Anything else thrown is recorded as an
 * `error` (the check could not run). Evidence — the exact exchanges — is attached by the runner, never assembled
 * by the check.
 */
import type { FrozenConfig } from '../config/types.ts';
import type { Exchange } from '../http/exchange.ts';
import type { CheckContext } from './context.ts';
import type { CredentialName } from './recoveries.ts';

/** MUST: SERVICE-SPEC.md says it. SHOULD: a public standard. PROFILE: PROFILE.md's choice (see shared/PROFILE.md). */
export type Level = 'MUST' | 'SHOULD' | 'PROFILE';
export const LEVELS: readonly Level[] = ['MUST', 'SHOULD', 'PROFILE'];

/**
 * `undecided`: the check ran and measured, but the measurement's uncertainty under this run's conditions covers
 * the effect it judges (its message says which numbers). Never a pass, never a failure; counted apart.
 */
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

/** The check ran and the target broke the rule. */
export class CheckFailure extends Error {
  constructor(
    message: string,
    readonly details?: { expected?: unknown; actual?: unknown; [key: string]: unknown },
    /** Exchanges to show besides the check's own (e.g. a standing check pointing at other checks' traffic). */
    readonly exchanges?: readonly Exchange[],
  ) {
    super(message);
    this.name = 'CheckFailure';
  }
}

/**
 * The check cannot apply to this target or run (a precondition does not hold); `message` says why. With
 * `notApplicable`, the rule itself does not apply to what the target declares (one account: nothing to own
 * apart): a MUST check skipped so leaves the certification complete, and every report says so.
 */
export class CheckSkipped extends Error {
  constructor(
    reason: string,
    readonly notApplicable = false,
  ) {
    super(reason);
    this.name = 'CheckSkipped';
  }
}

/**
 * The check ran, but what it measured cannot decide the rule under this run's conditions: the uncertainty its
 * timing tolerance derives from the measured conditions covers the effect it judges (a wait that grew by 27 ms
 * while the event loop stalled for 200 ms). `reason` says what was measured; `details` carry the numbers
 * (the tolerance, the conditions snapshot) into the result's evidence.
 */
export class CheckUndecided extends Error {
  constructor(
    reason: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(reason);
    this.name = 'CheckUndecided';
  }
}

/**
 * The check found nothing that could have broken its rule (no 429 came, nothing was delivered): it passes, but
 * the result carries `vacuous` with this note, and a vacuous MUST pass leaves the certification incomplete.
 */
export class CheckVacuous extends Error {
  constructor(note: string) {
    super(note);
    this.name = 'CheckVacuous';
  }
}

export function fail(message: string, details?: CheckFailure['details'], exchanges?: readonly Exchange[]): never {
  throw new CheckFailure(message, details, exchanges);
}

export function skip(reason: string): never {
  throw new CheckSkipped(reason);
}

/** Skips because the rule does not apply to the target as its config declares it (not counted as unverified). */
export function notApplicable(reason: string): never {
  throw new CheckSkipped(reason, true);
}

/** Ends the check as "could not decide" under the run's measured conditions; `reason` names the measurement. */
export function undecided(reason: string, details?: Record<string, unknown>): never {
  throw new CheckUndecided(reason, details);
}

/** Ends the check as a pass without the evidence that makes it meaningful; `note` says what was missing. */
export function passVacuously(note: string): never {
  throw new CheckVacuous(note);
}

/** Identity helper that gives check literals their type. */
export function defineCheck(check: Check): Check {
  return check;
}
