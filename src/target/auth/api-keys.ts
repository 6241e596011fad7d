/** The four API keys of ReferenceCredentials and what each may do. */
import { TargetStartError } from '../../errors.ts';
import { SCOPES, type ReferenceCredentials, type Scope } from '../types.ts';
import type { Principal } from './principal.ts';

const ALL: ReadonlySet<Scope> = new Set(SCOPES);
const WITHOUT_SEND: ReadonlySet<Scope> = new Set(SCOPES.filter((s) => s !== 'messages:send'));

export class ApiKeyRegistry {
  readonly #byKey = new Map<string, Principal>();

  constructor(keys: ReferenceCredentials['apiKeys']) {
    this.#add(keys.full, { kind: 'apiKey', id: 'key:full', scopes: ALL, quota: 'default' });
    this.#add(keys.restricted, { kind: 'apiKey', id: 'key:restricted', scopes: WITHOUT_SEND, quota: 'default' });
    this.#add(keys.second, { kind: 'apiKey', id: 'key:second', scopes: ALL, quota: 'default' });
    this.#add(keys.load, { kind: 'apiKey', id: 'key:load', scopes: ALL, quota: 'load' });
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
