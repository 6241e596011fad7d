/**
 * Valid request bodies from a request schema, as fast-check arbitraries: the schema is walked node by node
 * (object, array, string with length / pattern / format, enum, const, oneOf). Strings mix any Unicode code point
 * with graphemes; lengths are kept short (the boundaries are the invalid generator's business). URLs point at
 * `.invalid` hosts (RFC 6761), so a registered webhook can never deliver anywhere.
 */
import fc from 'fast-check';
import { child, isNever, resolve, unreadable, type Located } from './schema-walk.ts';

/** Arbitraries that replace the schema's own at a JSON Pointer (rules that live beyond the schema). */
export type Overrides = Readonly<Record<string, fc.Arbitrary<unknown>>>;

/** Longest generated string, unless the schema demands more. */
const MAX_GENERATED_LENGTH = 64;
const MAX_GENERATED_ITEMS = 4;

/** ISO 8601 UTC date-times between two years, millisecond precision ("2031-04-05T06:07:08.009Z"). */
export function isoDates(fromYear: number, toYear: number): fc.Arbitrary<string> {
  return fc
    .integer({ min: Date.UTC(fromYear, 0, 1), max: Date.UTC(toYear, 0, 1) })
    .map((ms) => new Date(ms).toISOString());
}

/** Any Unicode scalar value (fast-check's own 'binary' unit costs a second to set up on first use). */
const codePoint = fc
  .integer({ min: 0, max: 0x10ffff })
  .filter((cp) => cp < 0xd800 || cp > 0xdfff)
  .map((cp) => String.fromCodePoint(cp));

const label = fc.stringMatching(/^[a-z][a-z0-9-]{0,14}[a-z0-9]$/);

/** http(s) URLs on hosts that never resolve. */
export const invalidHostUrls: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom('http', 'https'), label, fc.array(fc.stringMatching(/^[A-Za-z0-9._~-]{1,12}$/), { maxLength: 3 }))
  .map(([scheme, host, segments]) => `${scheme}://${host}.example.invalid/${segments.join('/')}`);

/** Consecutive rejections after which a filter gives up (fast-check's own filter would retry forever). */
export const MAX_REJECTIONS = 2000;

/**
 * `arb` narrowed by `keep`, bounded: after MAX_REJECTIONS candidates in a row fail, `exhausted` is called (it
 * throws: the node is unreadable), instead of fast-check looping forever on constraints the generator cannot meet
 * (a format it does not generate, limits that contradict each other). Within the bound it samples exactly what an
 * unbounded filter would, so a seed still gives the same bodies.
 */
export function boundedFilter<T>(arb: fc.Arbitrary<T>, keep: (value: T) => boolean, exhausted: () => never): fc.Arbitrary<T> {
  let rejected = 0;
  return arb.filter((value) => {
    if (keep(value)) {
      rejected = 0;
      return true;
    }
    if (++rejected >= MAX_REJECTIONS) {
      rejected = 0;
      exhausted();
    }
    return false;
  });
}

/** A plain JSON value, for a node that takes any value (`true`, `{}`). */
const anyValue: fc.Arbitrary<unknown> = fc.oneof(fc.string({ maxLength: 16 }), fc.integer({ min: -1000, max: 1000 }), fc.boolean(), fc.constant(null));

export function validArbitrary(node: Located, overrides: Overrides = {}, pointer = ''): fc.Arbitrary<unknown> {
  const override = overrides[pointer];
  if (override) return override;
  const here = resolve(node);
  const schema = here.schema;
  if (isNever(schema)) unreadable(here, `no value is valid here (false), yet one is needed at ${pointer || '/'}`);
  if (Array.isArray(schema.oneOf)) {
    // A branch that takes no value (false) cannot be generated from; the others can.
    const branches = (schema.oneOf as unknown[]).map((branch, i) => child(here, branch as object, 'oneOf', i)).filter((branch) => !isNever(resolve(branch).schema));
    if (branches.length === 0) unreadable(here, 'every oneOf branch is false');
    return fc.oneof(...branches.map((branch) => validArbitrary(branch, overrides, pointer)));
  }
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  if (Array.isArray(schema.type)) {
    // type: ["string", "null"]: any of the types, each with the node's other keywords.
    const types = schema.type as unknown[];
    if (types.length === 0 || !types.every((t) => typeof t === 'string')) unreadable(here, `type ${JSON.stringify(schema.type)}`);
    return fc.oneof(...types.map((type) => validArbitrary({ ...here, schema: { ...schema, type } }, overrides, pointer)));
  }
  switch (schema.type ?? impliedType(schema)) {
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, object | boolean>;
      const required = (schema.required ?? []) as string[];
      const shapes: Record<string, fc.Arbitrary<unknown>> = {};
      // A required name without a schema of its own takes what additionalProperties allows (absent: anything).
      const extra = schema.additionalProperties as object | boolean | undefined;
      for (const name of required.filter((n) => !(n in properties))) {
        const prop = child(here, extra, 'additionalProperties');
        if (isNever(resolve(prop).schema)) unreadable(here, `property "${name}" is required but additionalProperties is false and it has no schema, so no body is valid`);
        shapes[name] = validArbitrary(prop, overrides, `${pointer}/${name}`);
      }
      for (const [name, sub] of Object.entries(properties)) {
        const prop = child(here, sub, 'properties', name);
        // A property whose schema is false must be absent: it is never generated.
        if (isNever(resolve(prop).schema)) {
          if (required.includes(name)) unreadable(prop, `property "${name}" is required but its schema is false, so no body is valid`);
          continue;
        }
        shapes[name] = validArbitrary(prop, overrides, `${pointer}/${name}`);
      }
      return fc.record(shapes, { requiredKeys: required.filter((name) => name in shapes) });
    }
    case 'array': {
      const items = child(here, schema.items as object | boolean | undefined, 'items');
      // items: false — only the empty array.
      if (isNever(resolve(items).schema)) return fc.constant([]);
      const item = validArbitrary(items, overrides, `${pointer}/0`);
      const constraints = {
        minLength: (schema.minItems as number | undefined) ?? 0,
        maxLength: Math.max((schema.minItems as number | undefined) ?? 0, Math.min((schema.maxItems as number | undefined) ?? MAX_GENERATED_ITEMS, MAX_GENERATED_ITEMS)),
      };
      return schema.uniqueItems ? fc.uniqueArray(item, { ...constraints, selector: (v) => JSON.stringify(v) }) : fc.array(item, constraints);
    }
    case 'string':
      return stringArbitrary(here);
    case 'integer':
      return fc.integer({ min: (schema.minimum as number | undefined) ?? -1000, max: (schema.maximum as number | undefined) ?? 1000 });
    case 'number':
      return fc.double({ min: (schema.minimum as number | undefined) ?? -1000, max: (schema.maximum as number | undefined) ?? 1000, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'any':
      return anyValue;
    default:
      unreadable(here, `type ${JSON.stringify(schema.type)}`);
  }
}

/**
 * The type a node without `type` constrains: the one its keywords apply to (properties → object, items → array,
 * string limits → string, bounds → number), else `any` (true, `{}`, a node of annotations only). Values are kept
 * only when AJV agrees, so a guess too narrow costs variety, never a wrong body.
 */
function impliedType(schema: Record<string, any>): string {
  if ('properties' in schema || 'required' in schema || 'additionalProperties' in schema) return 'object';
  if ('items' in schema || 'minItems' in schema || 'maxItems' in schema || 'uniqueItems' in schema) return 'array';
  if ('minLength' in schema || 'maxLength' in schema || 'pattern' in schema || 'format' in schema) return 'string';
  if ('minimum' in schema || 'maximum' in schema) return 'number';
  return 'any';
}

function stringArbitrary(here: Located): fc.Arbitrary<string> {
  const schema = here.schema;
  const min = (schema.minLength as number | undefined) ?? 0;
  const max = (schema.maxLength as number | undefined) ?? Number.MAX_SAFE_INTEGER;
  const fits = (s: string) => [...s].length >= min && [...s].length <= max;
  const bounded = (arb: fc.Arbitrary<string>, what: string): fc.Arbitrary<string> =>
    boundedFilter(arb, fits, () => unreadable(here, `no ${what} of ${min}–${max} characters came out of ${MAX_REJECTIONS} tries`));
  if (schema.format === 'email') return bounded(fc.emailAddress(), 'email address');
  if (schema.format === 'uri') return bounded(invalidHostUrls, 'URL');
  if (schema.format === 'date-time') return isoDates(2000, 2020);
  if (typeof schema.pattern === 'string') return bounded(fc.stringMatching(new RegExp(schema.pattern as string)), `string matching ${schema.pattern}`);
  const constraints = { minLength: min, maxLength: Math.min(max, Math.max(min, MAX_GENERATED_LENGTH)) };
  return bounded(fc.oneof(fc.string({ ...constraints, unit: codePoint }), fc.string({ ...constraints, unit: 'grapheme' })), 'string');
}
