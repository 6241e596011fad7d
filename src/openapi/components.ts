/**
 * The API's JSON Schemas (schemas/api/*.schema.json) as OpenAPI 3.1 `components.schemas`. OpenAPI 3.1 schemas
 * are JSON Schema 2020-12, so each file goes in as it is, with three changes: `$id`/`$schema` are dropped, a
 * schema's own `$defs` become components of their own (`send-message-request.json#/$defs/text` →
 * `SendMessageRequestText`), and every `$ref` is rewritten to point at a component (`common.json#/$defs/phone` →
 * `#/components/schemas/Phone`). Linters, explorers and code generators resolve a `$ref` against the document's
 * own location, not against a schema's `$id`; and the common generators handle only refs to whole components: a
 * ref into a component's `$defs` made openapi-typescript emit a self-referencing type (TS2502) and crashed
 * @hey-api/openapi-ts. Hoisting keeps the document equivalent: every ref still names the same subschema.
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
  if (file === '') return self === COMMON_COMPONENTS ? `#/components/schemas/${commonDef(pointer)}` : `#/components/schemas/${ownDef(self, pointer, ref)}`;
  const base = apiBaseName(ref);
  if (base === undefined) throw new Error(`$ref "${ref}" does not name a schema under schemas/api/`);
  if (base === 'common') return `#/components/schemas/${commonDef(pointer)}`;
  return `#/components/schemas/${ownDef(componentName(base), pointer, ref)}`;
}

/**
 * The component a pointer into a schema names: the schema itself (empty pointer) or one of its own top-level
 * `$defs`, hoisted to `<Schema><Def>`. Any deeper pointer is refused: it would point inside a component, which
 * the generators cannot follow.
 */
function ownDef(component: string, pointer: string, ref: string): string {
  if (pointer === '' || pointer === '/') return component;
  const match = /^\/\$defs\/([A-Za-z0-9_-]+)$/.exec(pointer);
  if (!match) throw new Error(`$ref "${ref}" must name a whole schema or one of its top-level $defs`);
  return hoistedName(component, match[1]!);
}

/** `SendMessageRequest` + `shortText` → `SendMessageRequestShortText`. */
function hoistedName(component: string, def: string): string {
  return `${component}${componentName(def.charAt(0).toUpperCase() + def.slice(1))}`;
}

/**
 * Adds `schema` as component `name`, and its top-level `$defs` as components `<name><Def>` beside it (a def's
 * own nested `$defs` are hoisted the same way, under the def's component name).
 */
function addComponent(components: Record<string, unknown>, name: string, schema: unknown, hoisted: Map<string, string[]>): void {
  // A replacement (the config's `api.schemas`) takes the place of the built-in schema and of its hoisted $defs.
  for (const previous of hoisted.get(name) ?? []) delete components[previous];
  hoisted.delete(name);
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) {
    components[name] = relocate(schema, name);
    return;
  }
  const { $defs, ...rest } = schema as SchemaObject;
  if ($defs !== undefined && ($defs === null || typeof $defs !== 'object')) throw new Error(`schema "${name}": $defs must be an object`);
  // Refs inside a def resolve against the enclosing schema (its `#/$defs/…`), so they are relocated with its name.
  for (const [def, value] of Object.entries(($defs ?? {}) as SchemaObject)) {
    const target = hoistedName(name, def);
    if (components[target] !== undefined) throw new Error(`schema "${name}": $defs/${def} would replace component ${target}`);
    const relocated = relocate(value, name);
    if (relocated !== null && typeof relocated === 'object' && '$defs' in (relocated as SchemaObject)) {
      throw new Error(`schema "${name}": $defs/${def} has $defs of its own; nest definitions one level only`);
    }
    components[target] = relocated;
    hoisted.set(name, [...(hoisted.get(name) ?? []), target]);
  }
  components[name] = relocate(rest, name);
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
 * The send-message forms as `anyOf` instead of `oneOf`. They exclude each other (each form requires its own `type`
 * constant, and the two text forms differ in `text`: an object with `body` or a string), so both keywords accept
 * exactly the same bodies; Redocly's overlap rule (no-illogical-composition-keywords) cannot see the object/string
 * difference behind a `$ref` with length limits and warns on `oneOf`, and generators turn both into the same union.
 * schemas/api keeps `oneOf`, which states the intent and gives AJV's clearer errors.
 */
function formsAsAnyOf(schema: SchemaObject): SchemaObject {
  const { oneOf, ...rest } = schema;
  return oneOf === undefined ? schema : { ...rest, anyOf: oneOf };
}

/**
 * Every API schema as a component, plus `overrides` (component name → a schema `$id` under schemas/api or a
 * JSON file path; the config's `api.schemas` and `api.errorSchema`): an override by `$id` becomes a `$ref` to
 * that component, a file is read and embedded.
 */
export function schemaComponents(overrides: Record<string, string> = {}): Record<string, unknown> {
  const components: Record<string, unknown> = {};
  const hoisted = new Map<string, string[]>();
  for (const [base, schema] of loadApiSchemas()) {
    if (base === 'common') {
      const defs = (schema.$defs ?? {}) as Record<string, unknown>;
      for (const [def, value] of Object.entries(defs)) components[componentName(def)] = relocate(value, COMMON_COMPONENTS);
      continue;
    }
    addComponent(components, componentName(base), base === 'send-message-request' ? formsAsAnyOf(schema) : schema, hoisted);
  }
  for (const [name, source] of Object.entries(overrides)) {
    const base = apiBaseName(source);
    if (base !== undefined) {
      if (componentName(base) !== name) components[name] = schemaRef(base);
      continue;
    }
    if (/^(https?|urn):/.test(source)) throw new Error(`schema "${source}" is not one of schemas/api/ and not a file`);
    addComponent(components, name, JSON.parse(readFileSync(source, 'utf8')), hoisted);
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
