import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAjv, schemaId } from '../../../../src/schemas/registry.ts';
import {
  BODY_OPERATIONS,
  effectiveSchema,
  hostileBodies,
  INPUTS_SEED,
  invalidBodies,
  longFormTextBodies,
  MIN_INVALID,
  validBodies,
} from '../../../../suites/inputs/lib/generate-bodies.ts';

// An Ajv of its own, so the test does not trust the generator's validator.
const ajv = createAjv();
const specs = Object.values(BODY_OPERATIONS);

describe.each(specs)('generated bodies for $slug', (spec) => {
  const validate = ajv.getSchema(schemaId(spec.schema))!;

  it('are the same for the same seed and differ for another', () => {
    expect(JSON.stringify(invalidBodies(spec, { seed: INPUTS_SEED }))).toBe(JSON.stringify(invalidBodies(spec, { seed: INPUTS_SEED })));
    expect(JSON.stringify(validBodies(spec, INPUTS_SEED))).toBe(JSON.stringify(validBodies(spec, INPUTS_SEED)));
    expect(JSON.stringify(validBodies(spec, INPUTS_SEED + 1))).not.toBe(JSON.stringify(validBodies(spec, INPUTS_SEED)));
  });

  it(`at least ${MIN_INVALID} invalid bodies, each invalid per the schema, with unique kinds, a rule and a source`, () => {
    const bodies = invalidBodies(spec);
    expect(bodies.length).toBeGreaterThanOrEqual(MIN_INVALID);
    for (const { kind, body, rule, source } of bodies) {
      expect(validate(body), kind).toBe(false);
      expect(rule.length, kind).toBeGreaterThan(0);
      // Built-in schemas: only rules SERVICE-SPEC.md or PROFILE.md stated.
      expect(source, kind).toMatch(/^(SERVICE-SPEC §|PROFILE )/);
    }
    expect(new Set(bodies.map((b) => b.kind)).size).toBe(bodies.length);
  });

  it('never test a rule nobody stated (extra properties, caption or secret lengths, name patterns, unique events)', () => {
    const kinds = invalidBodies(spec).map((b) => b.kind).join('\n');
    expect(kinds).not.toMatch(/extra property/);
    expect(kinds).not.toMatch(/(too long|too short).* at \/\w+\/caption/);
    expect(kinds).not.toMatch(/(too long|too short|against the pattern|odd unicode).* at \/template\/(name|language\/code)/);
    expect(kinds).not.toMatch(/(too long|too short).* at \/(secret|email|password)/);
    expect(kinds).not.toMatch(/(too few items|duplicate items) at \/events/);
  });

  it('cover the categories the suite promises', () => {
    const kinds = invalidBodies(spec).map((b) => b.kind).join('\n');
    for (const category of [/missing \//, /wrong type \(number for a string\)/, /not an object/]) expect(kinds).toMatch(category);
    if (spec.slug !== 'login') expect(kinds).toMatch(/wrong enum value|odd unicode|against the pattern|too long/);
  });

  it('hostile bodies: a huge string of 1–2 MiB and deep nesting, apart from the rule cases', () => {
    const hostile = hostileBodies(spec);
    expect(hostile.map((b) => b.kind).join('\n')).toMatch(/deep nesting \(1000 levels of objects\)/);
    const huge = hostile.filter((b) => b.kind.includes('huge string'));
    expect(huge).toHaveLength(1);
    const bytes = Buffer.byteLength(JSON.stringify(huge[0]!.body));
    expect(bytes).toBeGreaterThanOrEqual(1024 * 1024);
    expect(bytes).toBeLessThan(2 * 1024 * 1024);
    expect(invalidBodies(spec).some((b) => /huge string|deep nesting/.test(b.kind))).toBe(false);
  });

  it('at least 10 valid bodies, each valid per the schema', () => {
    const bodies = validBodies(spec);
    expect(bodies.length).toBeGreaterThanOrEqual(10);
    for (const { kind, body } of bodies) expect(validate(body), `${kind}: ${JSON.stringify(validate.errors)}`).toBe(true);
  });
});

describe('SERVICE-SPEC §2.1: `to` is digits only with country code', () => {
  it('has spec-sourced cases that put a non-digit into `to`', () => {
    const cases = invalidBodies(BODY_OPERATIONS.sendMessage).filter((c) => /at \/to$/.test(c.kind) && /pattern|odd unicode/.test(c.kind));
    expect(cases.length).toBeGreaterThanOrEqual(4);
    for (const c of cases) {
      expect(c.source).toBe('SERVICE-SPEC §2.1');
      expect((c.body as { to: string }).to).toMatch(/[^0-9]/);
    }
  });

  it('sends RTL overrides and NUL as invalid values, an unpaired surrogate never (no document makes it invalid)', () => {
    const text = invalidBodies(BODY_OPERATIONS.sendMessage).map((b) => JSON.stringify(b.body)).join('\n');
    expect(text).toContain('\u202e');
    expect(text).toContain('\\u0000');
    expect(text).not.toContain('\\ud800');
  });

  it('the message forms can be narrowed to the profile (no media, no short form)', () => {
    const kinds = invalidBodies(BODY_OPERATIONS.sendMessage, { branch: (name) => name === 'text' }).map((b) => b.kind);
    expect(kinds.every((k) => k.startsWith('text form:'))).toBe(true);
  });
});

/** Whether a generated value holds an unpaired surrogate anywhere (keys included). */
function holdsLoneSurrogate(value: unknown): boolean {
  if (typeof value === 'string') return /\p{Cs}/u.test(value);
  if (Array.isArray(value)) return value.some(holdsLoneSurrogate);
  return value !== null && typeof value === 'object' && Object.entries(value).some(([k, v]) => holdsLoneSurrogate(k) || holdsLoneSurrogate(v));
}

describe('an unpaired surrogate (RFC 8259 §8.2: what a parser makes of it is unpredictable)', () => {
  // The spec-only target's own schemas (test/fixtures/spec-target), the way its config names them.
  const fixtures = join(import.meta.dirname, '../../../fixtures/spec-target');
  const replacements = Object.fromEntries(specs.map((s) => [s.schema, join(fixtures, `${s.schema}.schema.json`)]).filter(([, file]) => existsSync(file!)));

  it.each(specs)('is in no invalid $slug body, built-in or the spec-only target\'s own schema', (spec) => {
    const schemas = [undefined, ...(replacements[spec.schema] ? [effectiveSchema(spec, replacements)] : [])];
    for (const schema of schemas) {
      const cases = invalidBodies(spec, schema ? { schema } : {});
      expect(cases.length).toBeGreaterThan(0);
      for (const c of cases) {
        expect(holdsLoneSurrogate(c.body), `${c.kind} (${c.source})`).toBe(false);
        expect(c.kind).not.toMatch(/surrogate/);
      }
    }
  });

  it.each(specs)('is one hostile $slug body, sent as the JSON escape \\ud800', (spec) => {
    const lone = hostileBodies(spec).filter((b) => holdsLoneSurrogate(b.body));
    expect(lone.map((b) => b.kind)).toEqual([expect.stringMatching(/^(text form: )?an unpaired surrogate \(JSON escape \\ud800, RFC 8259 §8\.2\) at \/\w+$/)]);
    expect(JSON.stringify(lone[0]!.body)).toContain('\\ud800');
  });
});

describe('rules beyond the schema', () => {
  it('valid campaigns are scheduled in the future, when scheduled', () => {
    for (const { body } of validBodies(BODY_OPERATIONS.createCampaign)) {
      const schedule = (body as { schedule?: string }).schedule;
      if (schedule !== undefined) expect(Date.parse(schedule)).toBeGreaterThan(Date.now());
    }
  });

  it('valid logins carry email addresses (SERVICE-SPEC §2.6 "Account email address")', () => {
    const email = ajv.compile({ type: 'string', format: 'email' });
    for (const { body } of validBodies(BODY_OPERATIONS.login)) expect(email((body as { email: string }).email), JSON.stringify(body)).toBe(true);
  });

  it('valid webhooks point at hosts that never resolve', () => {
    for (const { body } of validBodies(BODY_OPERATIONS.createWebhook)) expect(new URL((body as { url: string }).url).hostname).toMatch(/\.invalid$/);
  });

  it('the send-message forms can be narrowed (profile areas switched off)', () => {
    const textOnly = validBodies(BODY_OPERATIONS.sendMessage, INPUTS_SEED, 12, (b) => (b as { type?: string }).type === 'text');
    expect(textOnly).toHaveLength(12);
    for (const { body } of textOnly) expect((body as { type: string }).type).toBe('text');
  });
});

describe('a replacement schema (api.schemas)', () => {
  // A target whose numbers carry a "+" and that refuses unknown members: its own rules, stated in its own schema.
  const dir = mkdtempSync(join(tmpdir(), 'inputs-schema-'));
  const file = join(dir, 'send.json');
  writeFileSync(file, JSON.stringify({
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    required: ['to', 'text'],
    additionalProperties: false,
    properties: { to: { type: 'string', pattern: '^\\+[1-9][0-9]{6,14}$' }, text: { type: 'string', minLength: 1, maxLength: 300 } },
  }));
  const schema = effectiveSchema(BODY_OPERATIONS.sendMessage, { 'send-message-request': file });

  it('generates valid bodies from it, not from the built-in schema', () => {
    const bodies = validBodies(BODY_OPERATIONS.sendMessage, INPUTS_SEED, 10, undefined, schema);
    expect(schema.replaced).toBe(true);
    for (const { body } of bodies) expect((body as { to: string }).to).toMatch(/^\+/);
  });

  it('tests its every rule, extra properties included, with the target\'s schema as the source', () => {
    const cases = invalidBodies(BODY_OPERATIONS.sendMessage, { schema });
    const kinds = cases.map((c) => c.kind).join('\n');
    expect(kinds).toMatch(/extra property/);
    expect(kinds).toMatch(/too long \(301 characters\) at \/text/);
    for (const c of cases) expect(c.source).toBe('api.schemas send-message-request (the target\'s own schema)');
  });
});

describe('long-form text bodies (SERVICE-SPEC §2.1)', () => {
  it('are deterministic, valid long-form bodies without control characters', () => {
    const bodies = longFormTextBodies();
    expect(JSON.stringify(bodies)).toBe(JSON.stringify(longFormTextBodies()));
    const validate = ajv.getSchema(`${schemaId('send-message-request')}#/$defs/text`)!;
    for (const { body } of bodies) {
      expect(validate(body)).toBe(true);
      expect((body as { text: { body: string } }).text.body).not.toMatch(/\p{Cc}/u);
    }
  });
});
