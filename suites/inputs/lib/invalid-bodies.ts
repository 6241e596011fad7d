/**
 * Invalid request bodies: mutations of valid ones, derived from the schema node at each place — a required
 * field removed, a value of the wrong JSON type (a number where a string belongs, …), strings that break a
 * pattern or a format, strings one past their length limits, wrong enum values, extra properties where
 * additionalProperties is false, array bound violations. Each mutation names the schema keyword(s) it breaks
 * and where, so the caller can say which rule it tests and where that rule comes from (rule-sources.ts).
 * Hostile bodies (not rules of anyone's: a huge string, 1000 levels of nesting, an unpaired surrogate) are
 * marked `hostile`; they test robustness, not a rule.
 */
import { child, expectedType, isNever, resolve, type Located } from './schema-walk.ts';

export interface Mutation {
  /** What is wrong, for reports: "missing /to", "odd unicode (NUL) at /to". */
  kind: string;
  /** Property / index path of the change; [] replaces the whole body. */
  path: Array<string | number>;
  /** The new value; REMOVE deletes the property. */
  value: unknown;
  /** Schema keywords whose rule the mutation breaks (the first one with a known source names the rule). */
  keywords: readonly string[];
  /** Where the rule lives: the JSON Pointer of the field, array indices as `*` ("/recipients/*"). */
  at: string;
  /** The schema node of the field (resolved), so a caller can tell which keyword the new value really breaks. */
  node?: Record<string, any>;
  /** A robustness probe rather than a rule (deep nesting, a huge string, a body that is not an object). */
  hostile?: true;
}

export const REMOVE = Symbol('remove');

/** Long enough to exceed every string limit of the request schemas, short of the reference's 2 MiB body limit. */
export const HUGE_LENGTH = 1024 * 1024 + 1;
export const NESTING_DEPTH = 1000;

const WRONG_TYPES: Record<string, Array<[string, unknown]>> = {
  string: [['number for a string', 15551234567], ['boolean', true], ['null', null], ['array', ['x']]],
  object: [['string for an object', 'body'], ['array', []], ['number', 1]],
  array: [['string for an array', 'a@example.com'], ['object', {}]],
  integer: [['string for an integer', '1'], ['fraction', 1.5]],
  number: [['string for a number', '1']],
  boolean: [['string for a boolean', 'true']],
};

/**
 * Characters that break a constrained value (a pattern, a format, an enum) under every reading of its rule: an RTL
 * override in front of a URL, a date or a number, a NUL inside it. No unpaired surrogate here: RFC 8259 §8.2 leaves
 * what a JSON parser makes of `"\ud800"` unpredictable (kept, replaced by U+FFFD, refused), and a WHATWG URL parser
 * takes the result in a path, so "a lone surrogate is invalid" is a rule no document states. It is sent only as a
 * hostile body (LONE_SURROGATE), where the one thing owed is an answer that is not a 5xx.
 */
const ODD_UNICODE: Array<[string, (s: string) => string]> = [
  ['RTL override', (s) => `\u202e${s}`],
  ['NUL', (s) => `${s.slice(0, 1)}\u0000${s.slice(1)}`],
];

/** The unpaired high surrogate of the hostile body: JSON.stringify writes it as the escape `\ud800`. */
export const LONE_SURROGATE = '\ud800';

/** Plain ASCII twists of a patterned value: a sign, a separator, a letter (kept only where the pattern objects). */
const PATTERN_TWISTS: Array<[string, (s: string) => string]> = [
  ['a leading "+"', (s) => `+${s}`],
  ['a separator', (s) => `${s.slice(0, 3)}-${s.slice(3)}`],
  ['a letter', (s) => `${s.slice(0, -1)}x`],
];

/** Every mutation the schema suggests for a valid `value` at `path`. */
export function mutationsOf(node: Located, value: unknown, path: Array<string | number> = []): Mutation[] {
  const here = resolve(node);
  const schema = here.schema;
  const at = pointer(path);
  const where = rulePointer(path);
  const out: Mutation[] = [];
  const type = expectedType(schema);
  const push = (kind: string, keywords: string[], value: unknown, mutationPath = path, rulePath = where) =>
    out.push({ kind, path: mutationPath, value, keywords, at: rulePath, node: schema });
  if (path.length > 0) {
    for (const [what, wrong] of WRONG_TYPES[type ?? ''] ?? []) push(`wrong type (${what}) at ${at}`, ['type', 'const', 'enum'], wrong);
  }
  if ('const' in schema || Array.isArray(schema.enum)) {
    push(`wrong enum value at ${at}`, ['const', 'enum'], 'sms');
    push(`enum value in the wrong case at ${at}`, ['const', 'enum'], String(value).toUpperCase());
  }
  const constraints = ['const', 'enum', 'pattern', 'format'].filter((k) => k in schema);
  if (typeof value === 'string' && constraints.length > 0) {
    for (const [what, twist] of ODD_UNICODE) push(`odd unicode (${what}) at ${at}`, constraints, twist(value));
  }
  if (typeof value === 'string' && typeof schema.pattern === 'string') {
    for (const [what, twist] of PATTERN_TWISTS) push(`${what} against the pattern at ${at}`, ['pattern', 'format'], twist(value));
  }
  if (type === 'string' && typeof schema.maxLength === 'number' && schema.maxLength < HUGE_LENGTH - 1) {
    push(`too long (${schema.maxLength + 1} characters) at ${at}`, ['maxLength'], 'x'.repeat(schema.maxLength + 1));
  }
  if (type === 'string' && typeof schema.minLength === 'number' && schema.minLength > 0) {
    push(`too short (${schema.minLength - 1} characters) at ${at}`, ['minLength'], 'x'.repeat(schema.minLength - 1));
  }
  if ((type === 'integer' || type === 'number') && typeof schema.maximum === 'number') push(`above the maximum at ${at}`, ['maximum'], schema.maximum + 1);
  if ((type === 'integer' || type === 'number') && typeof schema.minimum === 'number') push(`below the minimum at ${at}`, ['minimum'], schema.minimum - 1);
  if (type === 'object' && value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    for (const name of (schema.required ?? []) as string[]) push(`missing ${at}/${name}`, ['required'], REMOVE, [...path, name], `${where}/${name}`);
    if (schema.additionalProperties === false) {
      push(`extra property at ${at || '/'}`, ['additionalProperties'], 'x', [...path, 'unexpected_field']);
      push(`extra property with an odd unicode name at ${at || '/'}`, ['additionalProperties'], 1, [...path, '\u202eid\u0000']);
    }
    for (const [name, sub] of Object.entries((schema.properties ?? {}) as Record<string, object | boolean>)) {
      const prop = child(here, sub, 'properties', name);
      // A property whose schema is false (or {not: {}}) must be absent: sending it breaks exactly that rule.
      if (!(name in record) && isNever(resolve(prop).schema)) {
        out.push({ kind: `forbidden property ${at}/${name} present`, path: [...path, name], value: 'x', keywords: ['false'], at: `${where}/${name}` });
      }
      if (name in record) out.push(...mutationsOf(prop, record[name], [...path, name]));
    }
  }
  if (type === 'array' && Array.isArray(value)) {
    if (typeof schema.minItems === 'number' && schema.minItems > 0) push(`too few items at ${at}`, ['minItems'], []);
    if (typeof schema.maxItems === 'number' && value.length > 0 && schema.maxItems <= 20_000) {
      push(`too many items (${schema.maxItems + 1}) at ${at}`, ['maxItems'], Array.from({ length: schema.maxItems + 1 }, (_, i) => value[i % value.length]));
    }
    if (schema.uniqueItems && value.length > 0) push(`duplicate items at ${at}`, ['uniqueItems'], [value[0], value[0]]);
    const items = child(here, schema.items as object | boolean | undefined, 'items');
    if (value.length > 0) out.push(...mutationsOf(items, value[0], [...path, 0]));
    else if (isNever(resolve(items).schema)) push(`an item where items is false at ${at}`, ['false'], ['x']);
  }
  return out;
}

/**
 * Whole-body mutations: the body is not an object (a rule: the operation's body is an object), and the hostile
 * ones — deep nesting (of the body and at the first property), a huge string, an unpaired surrogate in the first
 * string field.
 */
export function bodyMutations(node: Located, value: Record<string, unknown>): Mutation[] {
  const first = Object.keys(value)[0];
  const longest = longestStringField(node, value);
  const notObject = (what: string, wrong: unknown): Mutation => ({ kind: `not an object (${what})`, path: [], value: wrong, keywords: ['type'], at: '' });
  const out: Mutation[] = [
    notObject('array', [value]),
    notObject('string', 'body'),
    notObject('number', 42),
    notObject('null', null),
    { kind: `deep nesting (${NESTING_DEPTH} levels of objects)`, path: [], value: nested(NESTING_DEPTH, (inner) => ({ a: inner }), {}), keywords: [], at: '', hostile: true },
  ];
  if (first !== undefined) {
    out.push({ kind: `deep nesting (${NESTING_DEPTH} levels of arrays) at /${first}`, path: [first], value: nested(NESTING_DEPTH, (inner) => [inner], []), keywords: [], at: `/${first}`, hostile: true });
  }
  if (longest) out.push({ kind: `huge string (${HUGE_LENGTH} characters) at ${pointer(longest)}`, path: longest, value: 'h'.repeat(HUGE_LENGTH), keywords: [], at: pointer(longest), hostile: true });
  const text = firstStringField(value);
  if (text) {
    out.push({ kind: `an unpaired surrogate (JSON escape \\ud800, RFC 8259 §8.2) at ${pointer([text])}`, path: [text], value: `${value[text] as string}${LONE_SURROGATE}`, keywords: [], at: pointer([text]), hostile: true });
  }
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

/** The first top-level property of the body that holds a string. */
function firstStringField(value: Record<string, unknown>): string | undefined {
  return Object.keys(value).find((name) => typeof value[name] === 'string');
}

/** Path of the string property with the largest maxLength (the one a huge string most obviously exceeds). */
function longestStringField(node: Located, value: Record<string, unknown>): Array<string> | undefined {
  const here = resolve(node);
  let best: { path: string[]; max: number } | undefined;
  for (const [name, sub] of Object.entries((here.schema.properties ?? {}) as Record<string, object | boolean>)) {
    const prop = resolve(child(here, sub, 'properties', name)).schema;
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

export function pointer(path: ReadonlyArray<string | number>): string {
  return path.map((key) => `/${String(key).replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');
}

/** The pointer of the rule a path falls under: array indices become `*`. */
function rulePointer(path: ReadonlyArray<string | number>): string {
  return pointer(path.map((key) => (typeof key === 'number' ? '*' : key)));
}
