/**
 * Quotas left spent for a check that spends them anyway. A check that exhausts a credential's quota (a rate-limit
 * burst) used to wait for it to recover before it ended, so that later checks find the credential served — a
 * wait that bought nothing when the next check starts by exhausting the same quota again. Such a check now hands
 * the wait over (`leave`), and the runner does it before the next check that does not declare it exhausts that
 * credential (`Check.exhausts`), and before the checks end: every other check still starts with the credential
 * served, as before; only the waits between checks that throttle it on purpose are gone.
 */
import type { CredentialsConfig } from '../config/types.ts';

export type CredentialName = keyof CredentialsConfig;

export interface PendingRecovery {
  credential: CredentialName;
  /** The check that left the credential throttled: its traffic log takes the recovery's exchanges. */
  by: string;
  /** Makes sure the credential is served again (probe first: it may have recovered already), within its own bound. */
  ensureServed: () => Promise<unknown>;
}

export class Recoveries {
  readonly #pending = new Map<CredentialName, PendingRecovery>();

  /** `by` leaves `credential` possibly throttled; a later leave for the same credential replaces this one. */
  leave(recovery: PendingRecovery): void {
    this.#pending.set(recovery.credential, recovery);
  }

  /**
   * Takes the recoveries due before a check that exhausts `exhausts` itself: every pending one but those (which
   * stay pending: that check does not need them served, and whoever comes after it may).
   */
  takeDue(exhausts: readonly CredentialName[] = []): PendingRecovery[] {
    const due = [...this.#pending.values()].filter((recovery) => !exhausts.includes(recovery.credential));
    for (const recovery of due) this.#pending.delete(recovery.credential);
    return due;
  }
}
