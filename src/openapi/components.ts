/**
 * The API's JSON Schemas (schemas/api/*.schema.json) as OpenAPI 3.1 `components.schemas`. OpenAPI 3.1 schemas
 * are JSON Schema 2020-12, so each file goes in as it is, with two changes: `$id`/`$schema` are dropped and every
 * `$ref` is rewritten to a pointer inside the document (`common.json#/$defs/phone` →
 * `#/components/schemas/Common/$defs/phone`), because linters, explorers and code generators resolve a `$ref`
 * against the document's own location, not against a schema's `$id`.
 */
import { readFileSync } from 'node:fs';
import { loadApiSchemas, SCHEMA_ID_BASE } from '../schemas/registry.ts';

export type SchemaObject = Record<string, unknown>;

/** `send-message-request` → `SendMessageRequest`. */
export function componentName(baseName: string): string {
  return baseName.replace(/(^|[-_.])([a-z0-9])/g, (_m, _sep: string, c: string) => c.toUpperCase());
}

export function schemaRef(baseName: string): { $ref: string } {
  return { $ref: `#/components/schemas/${componentName(baseName)}` };
}

/** Base name of an API schema from a `$ref` or `$id` (`common.json#/…`, `https://…/api/common.json`), if it is one. */
function apiBaseName(ref: string): string | undefined {
  const file = ref.startsWith(SCHEMA_ID_BASE) ? ref.slice(SCHEMA_ID_BASE.length) : ref;
  const match = /^([a-z0-9-]+)\.json$/.exec(file.split('#')[0]!);
  return match && loadApiSchemas().has(match[1]!) ? match[1] : undefined;
}

/** A copy of `schema` with its refs pointing into the document; `self` is the component the schema becomes. */
export function relocate(schema: unknown, self: string): unknown {
  if (Array.isArray(schema)) return schema.map((item) => relocate(item, self));
  if (schema === null || typeof schema !== 'object') return schema;
  const out: SchemaObject = {};
  for (const [key, value] of Object.entries(schema as SchemaObject)) {
    if (key === '$id' || key === '$schema') continue;
    out[key] = key === '$ref' && typeof value === 'string' ? rewriteRef(value, self) : relocate(value, self);
  }
  return out;
}

function rewriteRef(ref: string, self: string): string {
  const [file, pointer = ''] = ref.split('#') as [string, string?];
  if (file === '') return self === COMMON_COMPONENTS ? `#/components/schemas/${commonDef(pointer)}` : `#/components/schemas/${self}${pointer}`;
  const base = apiBaseName(ref);
  if (base === undefined) throw new Error(`$ref "${ref}" does not name a schema under schemas/api/`);
  if (base === 'common') return `#/components/schemas/${commonDef(pointer)}`;
  return `#/components/schemas/${componentName(base)}${pointer}`;
}

/**
 * common.json is a bag of `$defs`, not a schema of its own: each definition becomes a component of its own
 * (`common.json#/$defs/phone` → `Phone`), the names SDK generators give the shared types.
 */
const COMMON_COMPONENTS = '(common)';
function commonDef(pointer: string): string {
  const match = /^\/\$defs\/([A-Za-z0-9_]+)$/.exec(pointer);
  if (!match) throw new Error(`$ref "common.json#${pointer}" must point at one of common.json's $defs`);
  return componentName(match[1]!);
}

/**
 * Every API schema as a component, plus `overrides` (component name → a schema `$id` under schemas/api or a
 * JSON file path; the config's `api.schemas` and `api.errorSchema`): an override by `$id` becomes a `$ref` to
 * that component, a file is read and embedded.
 */
export function schemaComponents(overrides: Record<string, string> = {}): Record<string, unknown> {
  const components: Record<string, unknown> = {};
  for (const [base, schema] of loadApiSchemas()) {
    if (base === 'common') {
      const defs = (schema.$defs ?? {}) as Record<string, unknown>;
      for (const [def, value] of Object.entries(defs)) components[componentName(def)] = relocate(value, COMMON_COMPONENTS);
      continue;
    }
    const name = componentName(base);
    components[name] = relocate(schema, name);
  }
  for (const [name, source] of Object.entries(overrides)) {
    const base = apiBaseName(source);
    if (base !== undefined) {
      if (componentName(base) !== name) components[name] = schemaRef(base);
      continue;
    }
    if (/^(https?|urn):/.test(source)) throw new Error(`schema "${source}" is not one of schemas/api/ and not a file`);
    components[name] = relocate(JSON.parse(readFileSync(source, 'utf8')), name);
  }
  return components;
}

/**
 * Removes the schema components nothing refers to (those of a PROFILE area the config switched off), so the
 * document carries no dead definitions: reachability is followed from everything outside `components.schemas`.
 */
export function pruneUnusedSchemas(doc: { components: { schemas: Record<string, unknown> } } & Record<string, unknown>): void {
  const schemas = doc.components.schemas;
  const used = new Set<string>();
  const pending: unknown[] = [{ ...doc, components: { ...doc.components, schemas: {} } }];
  while (pending.length > 0) {
    const node = pending.pop();
    if (Array.isArray(node)) pending.push(...node);
    else if (node !== null && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        const name = key === '$ref' && typeof value === 'string' ? /^#\/components\/schemas\/([^/]+)/.exec(value)?.[1] : undefined;
        if (name !== undefined && !used.has(name)) {
          used.add(name);
          pending.push(schemas[name]);
        } else pending.push(value);
      }
    }
  }
  for (const name of Object.keys(schemas)) if (!used.has(name)) delete schemas[name];
}
