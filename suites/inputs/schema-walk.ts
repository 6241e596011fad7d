/**
 * Walking request schemas (draft 2020-12) for the body generator: the API's own (schemas/api) or the
 * replacements a target's config names (`api.schemas`: a file path or a `$id`), with `$ref` resolution across
 * files, and AJV validity of a whole body against an operation's schema. Only the keywords request schemas
 * commonly use are understood; anything else throws, so a schema the generator cannot read ends the check as an
 * error (it could not decide) instead of producing wrong bodies.
 */
import { skip } from '../../src/conformance/check.ts';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { ValidateFunction } from 'ajv';
import { createAjv, loadApiSchemas, schemaId } from '../../src/schemas/registry.ts';

export type Schema = Record<string, any>;

/** A schema node and the `$id` its relative references resolve against. */
export interface Located {
  schema: Schema;
  baseId: string;
}

const KNOWN = new Set([
  '$schema', '$id', '$ref', '$defs', 'definitions', 'title', 'description', 'type', 'required', 'additionalProperties', 'properties',
  'oneOf', 'enum', 'const', 'minLength', 'maxLength', 'pattern', 'format', 'minItems', 'maxItems', 'uniqueItems', 'items',
  'minimum', 'maximum', 'examples', 'default', '$comment', 'deprecated', 'readOnly', 'writeOnly',
]);

/** Replacement schemas read from files (config `api.schemas`), by the `$id` they were registered under. */
const extraRoots = new Map<string, Schema>();
const ajv = createAjv();
const compiled = new Map<string, ValidateFunction>();

/**
 * The `$id` of a replacement schema (config `api.schemas` value: an absolute file path or a known `$id`),
 * loaded once into the walker and its validator. Throws with the reason when it cannot be read.
 */
export function loadReplacement(ref: string): string {
  if (/^(https?|urn):/i.test(ref)) {
    if (!rootById(ref)) throw new Error(`no schema with $id "${ref}" is known`);
    return ref;
  }
  const byFile = pathToFileURL(ref).toString();
  const cached = [...extraRoots.entries()].find(([, s]) => s.__file === byFile);
  if (cached) return cached[0];
  let schema: Schema;
  try {
    schema = JSON.parse(readFileSync(ref, 'utf8')) as Schema;
  } catch (err) {
    throw new Error(`cannot read schema file ${ref}: ${(err as Error).message}`);
  }
  const id = typeof schema.$id === 'string' ? schema.$id : byFile;
  if (!rootById(id)) {
    ajv.addSchema({ ...schema, $id: id });
    extraRoots.set(id, Object.defineProperty({ ...schema, $id: id }, '__file', { value: byFile, enumerable: false }));
  }
  return id;
}

function rootById(id: string): Schema | undefined {
  return extraRoots.get(id) ?? [...loadApiSchemas().values()].find((s) => s.$id === id);
}

/** The root node of a schema: an API schema's base name ("send-message-request") or any known `$id`. */
export function located(nameOrId: string): Located {
  const schema = nameOrId.includes(':') ? rootById(nameOrId) : loadApiSchemas().get(nameOrId);
  if (!schema) throw new Error(`no schema ${nameOrId}`);
  return { schema, baseId: String(schema.$id) };
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
    const root = rootById(baseId);
    if (!root) throw new Error(`unresolvable $ref ${String(current.schema.$ref)}`);
    let schema: Schema = root;
    for (const token of fragment.split('/').filter(Boolean)) schema = schema[token.replaceAll('~1', '/').replaceAll('~0', '~')];
    if (!schema) throw new Error(`unresolvable $ref ${String(current.schema.$ref)}`);
    current = { schema, baseId };
  }
  const unknown = Object.keys(current.schema).filter((key) => !KNOWN.has(key));
  // A schema the generator cannot read is not the target's fault: the check does not run, and says why.
  if (unknown.length > 0) skip(`the body generator does not understand the schema keyword(s) ${unknown.join(', ')} (in ${current.baseId}); no bodies were generated from it — it reads type, properties, required, items, enum, const, string and array limits, format, pattern and oneOf of $refs`);
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

/**
 * Whether `body` is valid against a schema: an API schema's base name, a known `$id`, either with a
 * `#/$defs/x` fragment.
 */
export function isValid(ref: string, body: unknown): boolean {
  let validate = compiled.get(ref);
  if (!validate) {
    const [name, fragment] = ref.split('#') as [string, string | undefined];
    const id = name.includes(':') ? name : schemaId(name);
    validate = ajv.getSchema(fragment ? `${id}#${fragment}` : id);
    if (!validate) throw new Error(`no schema ${ref}`);
    compiled.set(ref, validate);
  }
  return validate(body) === true;
}
