/**
 * Deep merge for the layers defaults ← file ← overrides. Mappings merge key by key; arrays and scalars
 * replace (a file's `rejectedStatus: [400]` means exactly [400], not [400, 422]); `undefined` in a layer means
 * "not given" (CLI parsers leave unset flags undefined), so it never erases a lower layer.
 */
import { isRecord } from './key-path.ts';

/** Every property optional, recursively; arrays are given whole. */
export type DeepPartial<T> = T extends readonly unknown[]
  ? T
  : T extends object
    ? { [K in keyof T]?: DeepPartial<T[K]> }
    : T;

/** A new value: `base` with `layer` merged over it. Neither input is changed. */
export function deepMerge<T>(base: T, layer: unknown): T {
  if (layer === undefined) return clone(base);
  if (!isRecord(base) || !isRecord(layer)) return clone(layer) as T;
  const out: Record<string, unknown> = clone(base) as Record<string, unknown>;
  for (const [key, value] of Object.entries(layer)) {
    if (value === undefined) continue;
    out[key] = key in out ? deepMerge(out[key], value) : clone(value);
  }
  return out as T;
}

/** Removes `undefined` members, recursively, so an override object says only what was given. */
export function pruneUndefined<T>(value: T): T {
  if (Array.isArray(value)) return value.map(pruneUndefined) as T;
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) if (child !== undefined) out[key] = pruneUndefined(child);
  return out as T;
}

function clone<T>(value: T): T {
  return value === undefined ? value : structuredClone(value);
}
