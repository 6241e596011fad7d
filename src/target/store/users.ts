/** The users that can log in, one per account: ReferenceCredentials.login and otherAccount.login. */
import { createHash, timingSafeEqual } from 'node:crypto';
import { TargetStartError } from '../../errors/harness-errors.ts';
import type { Account } from '../model.ts';

interface UserRecord {
  account: Account;
  passwordHash: Buffer;
}

function hash(password: string): Buffer {
  return createHash('sha256').update(password, 'utf8').digest();
}

// Compared against when the email is unknown, so both failure paths do the same work (no timing oracle).
const DUMMY_HASH = hash('not-a-password');

export class UserStore {
  readonly #byEmail = new Map<string, UserRecord>();
  readonly #byId = new Map<string, UserRecord>();

  add(account: Account, password: string): void {
    // Two accounts behind one email would make a login act for whichever was added last.
    if (this.#byEmail.has(normalizeEmail(account.email))) {
      throw new TargetStartError(`reference target: login email ${account.email} is used by two accounts`);
    }
    const record = { account, passwordHash: hash(password) };
    this.#byEmail.set(normalizeEmail(account.email), record);
    this.#byId.set(account.id, record);
  }

  /** The account when email and password match; null otherwise, whichever of the two was wrong. */
  authenticate(email: string, password: string): Account | null {
    const record = this.#byEmail.get(normalizeEmail(email));
    const ok = timingSafeEqual(record?.passwordHash ?? DUMMY_HASH, hash(password));
    return ok && record ? record.account : null;
  }

  get(id: string): Account | undefined {
    return this.#byId.get(id)?.account;
  }
}

/** Emails compare case-insensitively for login and for throttling, so `A@x` and `a@x` share one counter. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}
