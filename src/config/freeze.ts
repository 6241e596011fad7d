/**
 * Deep freeze: the loaded config is shared by every module of a run, so no module may change it under the
 * others' feet. Under ESM (always strict) an assignment to a frozen property throws a TypeError.
 */
import type { DeepReadonly } from './types.ts';

export function deepFreeze<T>(value: T): DeepReadonly<T> {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value as DeepReadonly<T>;
}
