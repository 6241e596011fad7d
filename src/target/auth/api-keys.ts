/** The API keys of ReferenceCredentials, what each may do and which account each acts for. */
import { TargetStartError } from '../../errors/harness-errors.ts';
import { SCOPES, type ReferenceCredentials, type Scope } from '../types.ts';
import { randomToken } from '../ids.ts';
import type { Principal } from './principal.ts';

const ALL: ReadonlySet<Scope> = new Set(SCOPES);
const WITHOUT_SEND: ReadonlySet<Scope> = new Set(SCOPES.filter((s) => s !== 'messages:send'));
/**
 * What the browser sandbox's key may do: "try it" on messages and the sandbox inbound simulation. Not
 * webhooks:manage (a registered webhook makes the target send requests) nor campaigns:write (bulk sends): a key that
 * a page fetches from /sandbox/config.json is never the full-scope one (src/target/README.md "Threat model of the
 * sandbox").
 */
export const SANDBOX_SCOPES: ReadonlySet<Scope> = new Set<Scope>(['messages:send', 'messages:read', 'sandbox']);

/** Account ids of the two accounts the reference serves: the first (every key but one) and the other. */
export interface AccountIds {
  main: string;
  other: string;
}

export class ApiKeyRegistry {
  readonly #byKey = new Map<string, Principal>();
  readonly #mainAccount: string;

  constructor(creds: Pick<ReferenceCredentials, 'apiKeys' | 'otherAccount'>, accounts: AccountIds) {
    const keys = creds.apiKeys;
    const main = accounts.main;
    this.#mainAccount = main;
    this.#add(keys.full, { kind: 'apiKey', id: 'key:full', scopes: ALL, quota: 'default', accountId: main });
    this.#add(keys.restricted, { kind: 'apiKey', id: 'key:restricted', scopes: WITHOUT_SEND, quota: 'default', accountId: main });
    this.#add(keys.second, { kind: 'apiKey', id: 'key:second', scopes: ALL, quota: 'default', accountId: main });
    this.#add(keys.load, { kind: 'apiKey', id: 'key:load', scopes: ALL, quota: 'load', accountId: main });
    this.#add(creds.otherAccount.apiKey, { kind: 'apiKey', id: 'key:other-account', scopes: ALL, quota: 'default', accountId: accounts.other });
  }

  /**
   * A fresh key for the browser sandbox only (explorer/routes.ts hands it to the page): random per start, never in
   * the banner nor in the harness's credentials, SANDBOX_SCOPES, a rate-limit bucket of its own, the first account.
   */
  addSandboxKey(): string {
    const key = randomToken('sk_sandbox_');
    this.#add(key, { kind: 'apiKey', id: 'key:sandbox', scopes: SANDBOX_SCOPES, quota: 'default', accountId: this.#mainAccount });
    return key;
  }

  lookup(key: string): Principal | undefined {
    return this.#byKey.get(key);
  }

  #add(key: string, principal: Principal): void {
    // Two roles sharing one fixed key would silently merge their scopes and buckets.
    if (this.#byKey.has(key)) {
      throw new TargetStartError(`reference target: API key for ${principal.id} duplicates another key`);
    }
    this.#byKey.set(key, principal);
  }
}
