/** Every registered PROFILE check names the config key(s) that describe it, or says why none does. */
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { harnessConfigSchema } from '../../src/config/index.ts';
import { DESCRIBE_KEYS } from '../../src/conformance/describe-keys.ts';
import { createDefaultRegistry } from '../../suites/index.ts';

const registry = createDefaultRegistry();
const profileIds = registry.checkIds.filter((id) => registry.check(id)?.level === 'PROFILE');

/** A key the config schema knows (api.schemas.<name>: any name, its entries are free). */
function exists(key: string): boolean {
  let node = harnessConfigSchema() as { properties?: Record<string, any>; additionalProperties?: unknown };
  for (const part of key.split('.')) {
    const next = node.properties?.[part] ?? (typeof node.additionalProperties === 'object' ? node.additionalProperties : undefined);
    if (!next) return false;
    node = next;
  }
  return true;
}

describe('describe-keys', () => {
  it('has an entry for every registered PROFILE check', () => {
    expect(profileIds.length).toBeGreaterThan(50);
    expect(profileIds.filter((id) => !DESCRIBE_KEYS.has(id))).toEqual([]);
  });

  it('names only registered PROFILE checks, and only keys the config has', () => {
    expect([...DESCRIBE_KEYS.keys()].filter((id) => registry.check(id)?.level !== 'PROFILE')).toEqual([]);
    const keys = [...DESCRIBE_KEYS.values()].flatMap((e) => ('keys' in e ? e.keys : []));
    expect([...new Set(keys)].filter((k) => !exists(k))).toEqual([]);
  });

  it('names api.schemas entries by a shipped schema file', () => {
    const shipped = new Set(readdirSync(new URL('../../schemas/api/', import.meta.url)).map((f) => f.replace(/\.schema\.json$/, '')));
    const keys = [...DESCRIBE_KEYS.values()].flatMap((e) => ('keys' in e ? e.keys : [])).filter((k) => k.startsWith('api.schemas.'));
    expect([...new Set(keys)].filter((k) => !shipped.has(k.slice('api.schemas.'.length)))).toEqual([]);
  });

  it('gives a reason wherever no key describes a check', () => {
    for (const entry of DESCRIBE_KEYS.values()) if ('notDescribable' in entry) expect(entry.notDescribable.length).toBeGreaterThan(20);
  });
});
