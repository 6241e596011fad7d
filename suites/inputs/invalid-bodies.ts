/**
 * Invalid request bodies: mutations of valid ones, derived from the schema node at each place — a required
 * field removed, a value of the wrong JSON type (a number where a string belongs, …), strings one past their
 * length limits, odd Unicode (RTL override, NUL, a lone surrogate) in patterned or enumerated fields, wrong
 * enum values, extra properties where additionalProperties is false, array bound violations — plus a few
 * whole-body ones: not an object, a huge string (≥ 1 MiB), 1000 levels of nesting.
 */
import { child, expectedType, resolve, type Located } from './schema-walk.ts';

export interface Mutation {
  /** What is wrong, for reports: "missing /to", "odd unicode (NUL) at /to". */
  kind: string;
  /** Property / index path of the change; [] replaces the whole body. */
  path: Array<string | number>;
  /** The new value; REMOVE deletes the property. */
  value: unknown;
}

export const REMOVE = Symbol('remove');

/** Long enough to exceed every string limit of the request schemas, short of the reference's 2 MiB body limit. */
export const HUGE_LENGTH = 1024 * 1024 + 1;
export const NESTING_DEPTH = 1000;

const WRONG_TYPES: Record<string, Array<[string, unknown]>> = {
  string: [['number for a string', 15551234567], ['boolean', true], ['null', null], ['array', ['x']]],
  object: [['string for an object', 'body'], ['array', []], ['number', 1]],
  array: [['string for an array', 'a@example.com'], ['object', {}]],
};

const ODD_UNICODE: Array<[string, (s: string) => string]> = [
  ['RTL override', (s) => `\u202e${s}`],
  ['NUL', (s) => `${s.slice(0, 1)}\u0000${s.slice(1)}`],
  ['lone surrogate', (s) => `${s}\ud800`],
];

/** Every mutation the schema suggests for a valid `value` at `path`. */
export function mutationsOf(node: Located, value: unknown, path: Array<string | number> = []): Mutation[] {
  const here = resolve(node);
  const schema = here.schema;
  const at = pointer(path);
  const out: Mutation[] = [];
  const type = expectedType(schema);
  if (path.length > 0) {
    for (const [what, wrong] of WRONG_TYPES[type ?? ''] ?? []) out.push({ kind: `wrong type (${what}) at ${at}`, path, value: wrong });
  }
  if ('const' in schema || Array.isArray(schema.enum)) {
    out.push({ kind: `wrong enum value at ${at}`, path, value: 'sms' });
    out.push({ kind: `enum value in the wrong case at ${at}`, path, value: String(value).toUpperCase() });
  }
  if (typeof value === 'string' && (schema.pattern || schema.format || 'const' in schema || schema.enum)) {
    for (const [what, twist] of ODD_UNICODE) out.push({ kind: `odd unicode (${what}) at ${at}`, path, value: twist(value) });
  }
  if (type === 'string' && typeof schema.maxLength === 'number' && schema.maxLength < HUGE_LENGTH - 1) {
    out.push({ kind: `too long (${schema.maxLength + 1} characters) at ${at}`, path, value: 'x'.repeat(schema.maxLength + 1) });
  }
  if (type === 'string' && typeof schema.minLength === 'number' && schema.minLength > 0) {
    out.push({ kind: `too short (${schema.minLength - 1} characters) at ${at}`, path, value: 'x'.repeat(schema.minLength - 1) });
  }
  if (type === 'object' && value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    for (const name of (schema.required ?? []) as string[]) out.push({ kind: `missing ${at}/${name}`, path: [...path, name], value: REMOVE });
    if (schema.additionalProperties === false) {
      out.push({ kind: `extra property at ${at || '/'}`, path: [...path, 'unexpected_field'], value: 'x' });
      out.push({ kind: `extra property with an odd unicode name at ${at || '/'}`, path: [...path, '\u202eid\u0000'], value: 1 });
    }
    for (const [name, sub] of Object.entries((schema.properties ?? {}) as Record<string, object>)) {
      if (name in record) out.push(...mutationsOf(child(here, sub), record[name], [...path, name]));
    }
  }
  if (type === 'array' && Array.isArray(value)) {
    if (typeof schema.minItems === 'number' && schema.minItems > 0) out.push({ kind: `too few items at ${at}`, path, value: [] });
    if (typeof schema.maxItems === 'number' && value.length > 0 && schema.maxItems <= 20_000) {
      out.push({ kind: `too many items (${schema.maxItems + 1}) at ${at}`, path, value: Array.from({ length: schema.maxItems + 1 }, (_, i) => value[i % value.length]) });
    }
    if (schema.uniqueItems && value.length > 0) out.push({ kind: `duplicate items at ${at}`, path, value: [value[0], value[0]] });
    if (value.length > 0) out.push(...mutationsOf(child(here, schema.items as object), value[0], [...path, 0]));
  }
  return out;
}

/** Whole-body mutations: the body is not an object, a huge string, deep nesting (at the first property too). */
export function bodyMutations(node: Located, value: Record<string, unknown>): Mutation[] {
  const first = Object.keys(value)[0];
  const longest = longestStringField(node, value);
  const out: Mutation[] = [
    { kind: 'not an object (array)', path: [], value: [value] },
    { kind: 'not an object (string)', path: [], value: 'body' },
    { kind: 'not an object (number)', path: [], value: 42 },
    { kind: 'not an object (null)', path: [], value: null },
    { kind: `deep nesting (${NESTING_DEPTH} levels of objects)`, path: [], value: nested(NESTING_DEPTH, (inner) => ({ a: inner }), {}) },
  ];
  if (first !== undefined) out.push({ kind: `deep nesting (${NESTING_DEPTH} levels of arrays) at /${first}`, path: [first], value: nested(NESTING_DEPTH, (inner) => [inner], []) });
  if (longest) out.push({ kind: `huge string (${HUGE_LENGTH} characters) at ${pointer(longest)}`, path: longest, value: 'h'.repeat(HUGE_LENGTH) });
  return out;
}

/** A deep copy of `base` with the mutation applied. */
export function applyMutation(base: unknown, mutation: Mutation): unknown {
  if (mutation.path.length === 0) return mutation.value;
  const copy = structuredClone(base) as Record<string | number, unknown>;
  let parent = copy;
  for (const key of mutation.path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const last = mutation.path[mutation.path.length - 1]!;
  if (mutation.value === REMOVE) delete parent[last];
  else parent[last] = mutation.value;
  return copy;
}

/** Path of the string property with the largest maxLength (the one a huge string most obviously exceeds). */
function longestStringField(node: Located, value: Record<string, unknown>): Array<string> | undefined {
  const here = resolve(node);
  let best: { path: string[]; max: number } | undefined;
  for (const [name, sub] of Object.entries((here.schema.properties ?? {}) as Record<string, object>)) {
    const prop = resolve(child(here, sub)).schema;
    if (!(name in value) || expectedType(prop) !== 'string') continue;
    const max = (prop.maxLength as number | undefined) ?? 0;
    if (!best || max > best.max) best = { path: [name], max };
  }
  return best?.path;
}

function nested(depth: number, wrap: (inner: unknown) => unknown, innermost: unknown): unknown {
  let value = innermost;
  for (let i = 0; i < depth; i++) value = wrap(value);
  return value;
}

function pointer(path: Array<string | number>): string {
  return path.map((key) => `/${String(key).replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');
}
