/**
 * Every valid JSON Schema is either read by the body generator or reported as unreadable by name (which schema,
 * which pointer) — never a crash. Boolean schemas are read anywhere: `false`, `{not: {}}` and `{not: true}` take no
 * value (a property that must be absent, an array that must stay empty), `true`, `{}` and `{not: false}` any.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CheckSkipped } from '../../../../src/conformance/outcomes.ts';
import { createAjv } from '../../../../src/schemas/registry.ts';
import { BODY_OPERATIONS, effectiveSchema, hostileBodies, invalidBodies, validBodies } from '../../../../suites/inputs/lib/generate-bodies.ts';

const dir = mkdtempSync(join(tmpdir(), 'schema-walk-'));
let files = 0;
const spec = BODY_OPERATIONS.sendMessage;

/** A replacement send-message schema in a file of its own (each with its own `$id`). */
function replacement(schema: unknown, id = `https://walk.test/schemas/${++files}.json`): ReturnType<typeof effectiveSchema> {
  const file = join(dir, `s${++files}.json`);
  const body = typeof schema === 'object' && schema !== null ? { $schema: 'https://json-schema.org/draft/2020-12/schema', $id: id, ...schema } : schema;
  writeFileSync(file, JSON.stringify(body));
  return effectiveSchema(spec, { 'send-message-request': file });
}

/** A text-only send: `to` and `text`, plus whatever `extra` properties say. */
function sendSchema(extra: Record<string, unknown>, more: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    type: 'object',
    required: ['to', 'text'],
    properties: { to: { type: 'string', pattern: '^[1-9][0-9]{7,14}$' }, text: { type: 'string', minLength: 1, maxLength: 50 }, ...extra },
    ...more,
  };
}

/** What generating from a schema does: the bodies, or the skip's reason; anything else is thrown on. */
function generate(schema: ReturnType<typeof effectiveSchema>): { valid: unknown[]; invalid: ReturnType<typeof invalidBodies> } | { skipped: string } {
  try {
    return { valid: validBodies(spec, undefined, 10, undefined, schema).map((b) => b.body), invalid: invalidBodies(spec, { schema }) };
  } catch (err) {
    if (err instanceof CheckSkipped) return { skipped: err.message };
    throw err;
  }
}

const ajv = createAjv();

describe.each([
  ['false', false],
  ['{not: {}}', { not: {} }],
  ['{not: true}', { not: true }],
])('a property whose schema is %s (it must be absent)', (_name, never) => {
  const schema = replacement(sendSchema({ type: never }));

  it('is read: valid bodies never carry it, and each is valid per AJV', () => {
    const result = generate(schema);
    expect(result).not.toHaveProperty('skipped');
    const { valid } = result as { valid: unknown[] };
    expect(valid.length).toBe(10);
    const validate = ajv.compile(sendSchema({ type: never }));
    for (const body of valid) {
      expect(body).not.toHaveProperty('type');
      expect(validate(body), JSON.stringify(body)).toBe(true);
    }
  });

  it('is tested: a body that carries it is an invalid case, the target\'s own rule', () => {
    const { invalid } = generate(schema) as { invalid: ReturnType<typeof invalidBodies> };
    const present = invalid.filter((c) => c.kind === 'forbidden property /type present');
    expect(present).toHaveLength(1);
    expect(present[0]!.body).toHaveProperty('type', 'x');
    expect(present[0]!.rule).toBe('/type: false');
    expect(present[0]!.source).toBe("api.schemas send-message-request (the target's own schema)");
  });
});

describe('other boolean schemas', () => {
  it('a property whose schema is true, {} or {not: false} takes any value, and no case is made against it', () => {
    for (const any of [true, {}, { not: false }]) {
      const result = generate(replacement(sendSchema({ note: any })));
      expect(result, JSON.stringify(any)).not.toHaveProperty('skipped');
      const { invalid } = result as { invalid: ReturnType<typeof invalidBodies> };
      expect(invalid.map((c) => c.kind).filter((k) => k.includes('/note'))).toEqual([]);
    }
  });

  it('items: false — arrays stay empty, and an item is the invalid case', () => {
    const schema = replacement(sendSchema({ tags: { type: 'array', items: false } }, { required: ['to', 'text', 'tags'] }));
    const result = generate(schema) as { valid: Array<{ tags: unknown[] }>; invalid: ReturnType<typeof invalidBodies> };
    for (const body of result.valid) expect(body.tags).toEqual([]);
    expect(result.invalid.map((c) => c.kind)).toContain('an item where items is false at /tags');
  });

  it('a whole schema file that is true takes any body: nothing is invalid, the valid bodies pass AJV', () => {
    const result = generate(replacement(true)) as { valid: unknown[]; invalid: unknown[] };
    expect(result.valid.length).toBe(10);
    expect(result.invalid).toEqual([]);
  });

  it('a whole schema file that is false is reported by name: no body can be valid', () => {
    const result = generate(replacement(false));
    expect(result).toHaveProperty('skipped');
    expect((result as { skipped: string }).skipped).toMatch(/cannot read the schema at file:\/\/.*\.json#: no value is valid here/);
  });

  it('a required property whose schema is false is reported by name and pointer', () => {
    const id = 'https://walk.test/schemas/required-false.json';
    const result = generate(replacement(sendSchema({ type: false }, { required: ['to', 'text', 'type'] }), id));
    expect((result as { skipped: string }).skipped).toContain(`${id}#/properties/type: property "type" is required but its schema is false`);
  });

  it('a root that is a $ref into its own $defs (beside $schema, $id and $defs) is read', () => {
    const schema = { $ref: '#/$defs/send', $defs: { send: sendSchema({ type: false }) } };
    const result = generate(replacement(schema));
    expect(result).not.toHaveProperty('skipped');
    expect((result as { valid: unknown[] }).valid.length).toBe(10);
  });

  it('type as a list of types is read', () => {
    const result = generate(replacement(sendSchema({ note: { type: ['string', 'null'], maxLength: 5 } }, { required: ['to', 'text', 'note'] })));
    const { valid } = result as { valid: Array<{ note: unknown }> };
    for (const body of valid) expect(body.note === null || (typeof body.note === 'string' && [...body.note].length <= 5)).toBe(true);
  });
});

describe('what the generator does not read is named, never a crash', () => {
  it.each([
    ['allOf', { note: { allOf: [{ type: 'string' }] } }, '#/properties/note: keyword(s) allOf'],
    ['not of a real schema', { note: { type: 'string', not: { const: 'x' } } }, '#/properties/note: not of a schema other than {}, true or false'],
    ['a $ref to an anchor', { note: { $ref: '#here' } }, '#/properties/note: $ref "#here" points at an anchor'],
    ['a $ref to nothing', { note: { $ref: '#/$defs/missing' } }, '#/properties/note: $ref "#/$defs/missing" points at nothing'],
    ['a $ref with a sibling constraint', { note: { $ref: '#/$defs/s', maxLength: 3 } }, '#/properties/note: keyword(s) maxLength beside $ref'],
  ])('%s', (_name, extra, where) => {
    const id = `https://walk.test/schemas/unreadable-${++files}.json`;
    const result = generate(replacement(sendSchema(extra, { required: ['to', 'text', 'note'], $defs: { s: { type: 'string' } } }), id));
    expect(result).toHaveProperty('skipped');
    expect((result as { skipped: string }).skipped).toContain(`the body generator cannot read the schema at ${id}${where}`);
  });

  it('a format the generator does not produce is named after a bounded number of tries, not an endless loop', () => {
    const id = `https://walk.test/schemas/uuid-${++files}.json`;
    const result = generate(replacement(sendSchema({ ref: { type: 'string', format: 'uuid' } }, { required: ['to', 'text', 'ref'] }), id));
    expect((result as { skipped: string }).skipped).toMatch(new RegExp(`cannot read the schema at ${id.replaceAll('.', '\\.')}#: none of 2000 generated bodies in a row was valid.*; the last one broke #/properties/ref/format \\(must match format "uuid"\\)`));
  });

  it('string limits that no generated email meets are named with the pointer', () => {
    const id = `https://walk.test/schemas/short-email-${++files}.json`;
    const result = generate(replacement(sendSchema({ mail: { type: 'string', format: 'email', maxLength: 3 } }, { required: ['to', 'text', 'mail'] }), id));
    expect((result as { skipped: string }).skipped).toContain(`${id}#/properties/mail: no email address of 0–3 characters came out of 2000 tries`);
  });

  it('a required name without a schema of its own is generated (any value), as JSON Schema allows', () => {
    const schema = sendSchema({}, { required: ['to', 'text', 'tag'] });
    const { valid } = generate(replacement(schema)) as { valid: unknown[] };
    const validate = ajv.compile(schema);
    for (const body of valid) {
      expect(body).toHaveProperty('tag');
      expect(validate(body)).toBe(true);
    }
  });

  it('hostile bodies from a schema with a false property do not crash either', () => {
    const schema = replacement(sendSchema({ type: false }));
    expect(hostileBodies(spec, { schema }).map((b) => b.kind)).toContain('deep nesting (1000 levels of objects)');
  });
});
