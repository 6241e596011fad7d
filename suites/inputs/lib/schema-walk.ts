/**
 * Walking request schemas (draft 2020-12) for the body generator: the API's own (schemas/api) or the
 * replacements a target's config names (`api.schemas`: a file path or a `$id`), with `$ref` resolution across
 * files, and AJV validity of a whole body against an operation's schema. Boolean schemas are read anywhere
 * (`true` and `{}` take any value; `false`, `{not: {}}` and `{not: true}` take none — a property that must be
 * absent, an array that must be empty); a keyword the generator does not read ends the check as skipped, naming
 * the schema and the JSON Pointer of the node (it could not decide), never as an error or with wrong bodies.
 */
import { skip } from '../../../src/conformance/outcomes.ts';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { ValidateFunction } from 'ajv';
import { apiAjv, createAjv, loadApiSchemas, schemaId } from '../../../src/schemas/registry.ts';

export type Schema = Record<string, any>;

/** A schema node, the `$id` its relative references resolve against, and where it sits in that document. */
export interface Located {
  schema: Schema;
  baseId: string;
  /** JSON Pointer of the node inside the document `baseId` names ("" for its root). */
  pointer?: string;
}

const KNOWN = new Set([
  '$schema', '$id', '$ref', '$defs', 'definitions', 'title', 'description', 'type', 'required', 'additionalProperties', 'properties',
  'oneOf', 'enum', 'const', 'minLength', 'maxLength', 'pattern', 'format', 'minItems', 'maxItems', 'uniqueItems', 'items',
  'minimum', 'maximum', 'examples', 'default', '$comment', 'deprecated', 'readOnly', 'writeOnly', 'not',
  '$anchor', 'contentMediaType', 'contentEncoding',
]);

/** What `false` (and `{not: {}}`, `{not: true}`) reads as: no value is valid here. */
const NEVER: Schema = Object.freeze({ not: Object.freeze({}) });

/** Whether a (resolved) node takes no value at all: `false`, or `not` of a schema that takes every value. */
export function isNever(schema: Schema): boolean {
  const not = schema.not as unknown;
  return not === true || (typeof not === 'object' && not !== null && Object.keys(not).length === 0);
}

/** "https://x/schemas/a.json#/$defs/b": the node's schema and pointer, for messages. */
export function whereOf(node: Located): string {
  return `${node.baseId}#${node.pointer ?? ''}`;
}

/** The generator cannot read a node: the check skips (it could not decide), naming the schema and the pointer. */
export function unreadable(node: Located, why: string): never {
  skip(`the body generator cannot read the schema at ${whereOf(node)}: ${why}; no bodies were generated from it — it reads type, properties, required, items, enum, const, string and array limits, format, pattern, oneOf, boolean schemas (true, false) and not of {} / true / false`);
}

/** Replacement schemas read from files (config `api.schemas`), by the `$id` they were registered under. */
const extraRoots = new Map<string, Schema>();
// Replacement schemas go to an Ajv of their own, made when the first one is loaded (it holds the API schemas
// too, so a replacement may $ref them); without replacements the process's API Ajv serves, compiled once.
let withReplacements: ReturnType<typeof createAjv> | undefined;
const ajv = (): ReturnType<typeof createAjv> => withReplacements ?? apiAjv();
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
  // A whole file may be a boolean schema: spreading `false` would make it `{}`, which takes everything.
  if (typeof schema === 'boolean') schema = schema ? {} : { ...NEVER };
  else if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) throw new Error(`schema file ${ref} holds no JSON Schema (an object or a boolean)`);
  const id = typeof schema.$id === 'string' ? schema.$id : byFile;
  if (!rootById(id)) {
    withReplacements ??= createAjv();
    withReplacements.addSchema({ ...schema, $id: id });
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
  return { schema, baseId: String(schema.$id), pointer: '' };
}

/**
 * Follows `$ref`s (`common.json#/$defs/phone`, `#/$defs/media`) until a node without one, reads a boolean schema
 * as an object one (`true` → `{}`, `false` → NEVER), and skips — naming the node — on what it cannot read.
 */
export function resolve(node: Located): Located {
  let current = asObject(node);
  for (let hops = 0; typeof current.schema.$ref === 'string'; hops++) {
    if (hops > 20) unreadable(current, '$ref chain longer than 20');
    const ref = current.schema.$ref as string;
    const url = new URL(ref, current.baseId);
    const fragment = decodeURIComponent(url.hash.slice(1));
    url.hash = '';
    const baseId = url.toString();
    const root = rootById(baseId);
    if (!root) unreadable(current, `$ref "${ref}" names no schema the harness has loaded`);
    if (fragment !== '' && !fragment.startsWith('/')) unreadable(current, `$ref "${ref}" points at an anchor; only JSON Pointer fragments are followed`);
    let schema: unknown = root;
    for (const token of fragment.split('/').filter(Boolean)) {
      schema = schema !== null && typeof schema === 'object' ? (schema as Schema)[token.replaceAll('~1', '/').replaceAll('~0', '~')] : undefined;
    }
    if (schema === undefined) unreadable(current, `$ref "${ref}" points at nothing`);
    // Keywords beside a $ref also apply (2020-12); the generator reads the target alone, so it refuses them.
    const beside = Object.keys(current.schema).filter((key) => key !== '$ref' && !ANNOTATIONS.has(key));
    if (beside.length > 0) unreadable(current, `keyword(s) ${beside.join(', ')} beside $ref`);
    current = asObject({ schema: schema as Schema, baseId, pointer: fragment });
  }
  const unknown = Object.keys(current.schema).filter((key) => !KNOWN.has(key));
  // A schema the generator cannot read is not the target's fault: the check does not run, and says why.
  if (unknown.length > 0) unreadable(current, `keyword(s) ${unknown.join(', ')}`);
  const not = current.schema.not as unknown;
  if (not !== undefined && not !== false && !isNever(current.schema)) unreadable(current, 'not of a schema other than {}, true or false');
  return current;
}

/** Keywords that annotate or hold definitions, not constraints: allowed beside a $ref (a root that refs its $defs). */
const ANNOTATIONS = new Set([
  'title', 'description', '$comment', 'examples', 'default', 'deprecated', 'readOnly', 'writeOnly',
  '$schema', '$id', '$defs', 'definitions', '$anchor', 'contentMediaType', 'contentEncoding',
]);

/** A node whose schema is a boolean, read as the object schema that means the same. */
function asObject(node: Located): Located {
  const schema = node.schema as unknown;
  if (schema === true || schema === undefined) return { ...node, schema: {} };
  if (schema === false) return { ...node, schema: NEVER };
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) unreadable(node, `${JSON.stringify(schema)} is not a schema (an object or a boolean)`);
  return node;
}

/** A child node (property, item, branch) of a located node, `at` the keywords and names that lead to it. */
export function child(parent: Located, schema: Schema | boolean | undefined, ...at: Array<string | number>): Located {
  const pointer = `${parent.pointer ?? ''}${at.map((key) => `/${String(key).replaceAll('~', '~0').replaceAll('/', '~1')}`).join('')}`;
  return { schema: schema as Schema, baseId: parent.baseId, pointer };
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
    validate = ajv().getSchema(fragment ? `${id}#${fragment}` : id);
    if (!validate) throw new Error(`no schema ${ref}`);
    compiled.set(ref, validate);
  }
  const ok = validate(body) === true;
  const first = validate.errors?.[0];
  lastError = ok || !first ? undefined : `${first.schemaPath} (${first.message ?? first.keyword})`;
  return ok;
}

let lastError: string | undefined;

/** Where the last body `isValid` refused broke the schema: AJV's schema path and message, e.g. "#/properties/ref/format (must match format "uuid")". */
export function lastValidationError(): string | undefined {
  return lastError;
}
