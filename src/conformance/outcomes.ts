/**
 * How a check ends other than by returning (a pass): `run` throws `CheckFailure` when the target broke the rule,
 * `CheckSkipped` when a precondition does not hold, `CheckUndecided` when the run's measured conditions make its
 * time-dependent answer unknowable, `CheckVacuous` when it passes without the evidence that gives the pass
 * meaning. The runner tells them apart; anything else thrown is recorded as an `error`. Kept apart from the
 * check model so that helpers below the context (the schema validator) can fail a check without importing it.
 */
import type { Exchange } from '../http/exchange.ts';

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
