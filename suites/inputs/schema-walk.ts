/**
 * Walking the API's request schemas (schemas/api, draft 2020-12) for the body generator: `$ref` resolution
 * across files, and AJV validity of a whole body against an operation's schema. Only the keywords the request
 * schemas use are understood; anything else throws, so a schema change cannot silently produce wrong bodies.
 */
import type { ValidateFunction } from 'ajv';
import { createAjv, loadApiSchemas, schemaId } from '../../src/schemas/registry.ts';

export type Schema = Record<string, any>;

/** A schema node and the `$id` its relative references resolve against. */
export interface Located {
  schema: Schema;
  baseId: string;
}

const KNOWN = new Set([
  '$schema', '$id', '$ref', '$defs', 'title', 'description', 'type', 'required', 'additionalProperties', 'properties',
  'oneOf', 'enum', 'const', 'minLength', 'maxLength', 'pattern', 'format', 'minItems', 'maxItems', 'uniqueItems', 'items',
]);

export function located(name: string): Located {
  const schema = loadApiSchemas().get(name);
  if (!schema) throw new Error(`no API schema ${name}`);
  return { schema, baseId: schemaId(name) };
}

/** Follows `$ref`s (`common.json#/$defs/phone`, `#/$defs/media`) until a node without one. */
export function resolve(node: Located): Located {
  let current = node;
  for (let hops = 0; typeof current.schema.$ref === 'string'; hops++) {
    if (hops > 20) throw new Error('$ref chain too long');
    const url = new URL(current.schema.$ref as string, current.baseId);
    const fragment = decodeURIComponent(url.hash.slice(1));
    url.hash = '';
    const baseId = url.toString();
    const root = [...loadApiSchemas().values()].find((s) => s.$id === baseId);
    if (!root) throw new Error(`unresolvable $ref ${String(current.schema.$ref)}`);
    let schema: Schema = root;
    for (const token of fragment.split('/').filter(Boolean)) schema = schema[token.replaceAll('~1', '/').replaceAll('~0', '~')];
    if (!schema) throw new Error(`unresolvable $ref ${String(current.schema.$ref)}`);
    current = { schema, baseId };
  }
  const unknown = Object.keys(current.schema).filter((key) => !KNOWN.has(key));
  if (unknown.length > 0) throw new Error(`the body generator does not understand schema keywords ${unknown.join(', ')}`);
  return current;
}

/** A child node (property, item, branch) of a located node. */
export function child(parent: Located, schema: Schema): Located {
  return { schema, baseId: parent.baseId };
}

/** The JSON type a node expects, from `type`, `const` or `enum`. */
export function expectedType(schema: Schema): string | undefined {
  if (typeof schema.type === 'string') return schema.type;
  const sample = 'const' in schema ? schema.const : Array.isArray(schema.enum) ? schema.enum[0] : undefined;
  return sample === undefined ? undefined : Array.isArray(sample) ? 'array' : sample === null ? 'null' : typeof sample;
}

const ajv = createAjv();
const compiled = new Map<string, ValidateFunction>();

/** Whether `body` is valid against an API schema by base name, or a `name#/$defs/x` fragment. */
export function isValid(ref: string, body: unknown): boolean {
  let validate = compiled.get(ref);
  if (!validate) {
    const [name, fragment] = ref.split('#') as [string, string | undefined];
    validate = ajv.getSchema(fragment ? `${schemaId(name)}#${fragment}` : schemaId(name));
    if (!validate) throw new Error(`no API schema ${ref}`);
    compiled.set(ref, validate);
  }
  return validate(body) === true;
}
