/**
 * types.ts, defaults.ts and schemas/harness-config.schema.json describe one format three times; this test
 * fails as soon as one of them gains or loses a key the others lack.
 */
import { describe, expect, it } from 'vitest';
import { defaultConfig, harnessConfigSchema } from '../../../src/config/index.ts';
import { oauthDefaults } from '../../../src/config/defaults.ts';
import { HARNESS_CONFIG_SCHEMA_ID, type SchemaNode } from '../../../src/config/schema.ts';
import { OPERATIONS, PROFILE_AREAS } from '../../../src/config/types.ts';

/**
 * Keys the schema knows that have no default: optional by design (types.ts marks them `?`). A key in here
 * must not be in defaultConfig().
 */
const OPTIONAL = [
  'target.baseUrl',
  'credentials.apiKey',
  'credentials.restrictedKey',
  'credentials.secondKey',
  'credentials.loadKey',
  'credentials.login',
  'credentials.oauth',
  'credentials.jwtSigning',
  'credentials.otherAccount',
  'api.rateLimitPolicy',
  'reference.rateLimit.refillPerSecond',
  'reference.credentials',
  'webhooks.publicUrl',
  'webhooks.preRegistered',
  'load.workers',
  'load.metricsOut',
];

/** Map-valued options: their keys are data (resource names), not part of the format. */
const MAPS = ['api.schemas'];

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function defaultKeys(value: unknown, prefix = ''): string[] {
  if (!isPlainObject(value) || MAPS.includes(prefix)) return [];
  return Object.entries(value).flatMap(([k, v]) => {
    const path = prefix ? `${prefix}.${k}` : k;
    return [path, ...defaultKeys(v, path)];
  });
}

/** Schema property paths, not descending into optional sections (their insides have no defaults). */
function schemaKeys(node: SchemaNode, prefix = ''): string[] {
  return Object.entries(node.properties ?? {}).flatMap(([k, child]) => {
    const path = prefix ? `${prefix}.${k}` : k;
    return OPTIONAL.includes(path) ? [path] : [path, ...schemaKeys(child, path)];
  });
}

function everyObject(node: SchemaNode, path: string, visit: (node: SchemaNode, path: string) => void): void {
  visit(node, path);
  for (const [k, child] of Object.entries(node.properties ?? {})) everyObject(child, path ? `${path}.${k}` : k, visit);
  if (node.items) everyObject(node.items, `${path}[]`, visit);
  if (typeof node.additionalProperties === 'object') everyObject(node.additionalProperties, `${path}.*`, visit);
}

describe('schema ↔ defaults ↔ types', () => {
  const schema = harnessConfigSchema();

  it('every default has a schema property, and every schema property a default unless optional', () => {
    const fromDefaults = defaultKeys(defaultConfig()).sort();
    const fromSchema = schemaKeys(schema).filter((k) => !OPTIONAL.includes(k)).sort();
    expect(fromDefaults).toEqual(fromSchema);
    for (const key of OPTIONAL) expect(fromDefaults).not.toContain(key);
  });

  it('the operation and profile-area lists of types.ts are the schema keys', () => {
    const api = schema.properties?.api?.properties;
    expect(Object.keys(api?.paths?.properties ?? {})).toEqual([...OPERATIONS]);
    expect(Object.keys(api?.successStatus?.properties ?? {})).toEqual([...OPERATIONS]);
    expect(Object.keys(schema.properties?.conformance?.properties?.profile?.properties ?? {})).toEqual([...PROFILE_AREAS]);
  });

  it('is draft 2020-12 with the project $id', () => {
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.$id).toBe(HARNESS_CONFIG_SCHEMA_ID);
  });

  it('closes every object level and documents every property', () => {
    everyObject(schema, '', (node, path) => {
      if (node.type === 'object' && !MAPS.includes(path)) expect(node.additionalProperties, path).toBe(false);
      for (const [k, child] of Object.entries(node.properties ?? {})) expect(child.description, `${path}.${k}`).toMatch(/\S{3}/);
    });
  });

  it('the oauth defaults (filled in when a config names a client) are oauth properties', () => {
    const oauth = schema.properties?.credentials?.properties?.oauth?.properties ?? {};
    for (const key of Object.keys(oauthDefaults())) expect(Object.keys(oauth)).toContain(key);
  });

  it('the documented defaults in descriptions agree with defaultConfig() for scalars', () => {
    const config = defaultConfig();
    config.credentials.oauth = { clientId: '', clientSecret: '', redirectUri: '', ...oauthDefaults() };
    const defaults = config as unknown as Record<string, unknown>;
    everyObject(schema, '', (node, path) => {
      const match = /Default: (-?\d+|true|false)\./.exec(node.description ?? '');
      if (!match || path.includes('*') || path.includes('[]')) return;
      const value = path.split('.').reduce<unknown>((v, k) => (isPlainObject(v) ? v[k] : undefined), defaults);
      expect(String(value), path).toBe(match[1]);
    });
  });
});
