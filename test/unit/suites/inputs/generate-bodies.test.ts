import { describe, expect, it } from 'vitest';
import { createAjv, schemaId } from '../../../../src/schemas/registry.ts';
import {
  BODY_OPERATIONS,
  INPUTS_SEED,
  invalidBodies,
  longFormTextBodies,
  MIN_INVALID,
  validBodies,
} from '../../../../suites/inputs/generate-bodies.ts';

// An Ajv of its own, so the test does not trust the generator's validator.
const ajv = createAjv();
const specs = Object.values(BODY_OPERATIONS);

describe.each(specs)('generated bodies for $slug', (spec) => {
  const validate = ajv.getSchema(schemaId(spec.schema))!;

  it('are the same for the same seed and differ for another', () => {
    expect(JSON.stringify(invalidBodies(spec, INPUTS_SEED))).toBe(JSON.stringify(invalidBodies(spec, INPUTS_SEED)));
    expect(JSON.stringify(validBodies(spec, INPUTS_SEED))).toBe(JSON.stringify(validBodies(spec, INPUTS_SEED)));
    expect(JSON.stringify(validBodies(spec, INPUTS_SEED + 1))).not.toBe(JSON.stringify(validBodies(spec, INPUTS_SEED)));
  });

  it(`at least ${MIN_INVALID} invalid bodies, each invalid per the schema, with unique kinds`, () => {
    const bodies = invalidBodies(spec);
    expect(bodies.length).toBeGreaterThanOrEqual(MIN_INVALID);
    for (const { kind, body } of bodies) expect(validate(body), kind).toBe(false);
    expect(new Set(bodies.map((b) => b.kind)).size).toBe(bodies.length);
  });

  it('cover every category the suite promises', () => {
    const kinds = invalidBodies(spec).map((b) => b.kind).join('\n');
    for (const category of [/missing \//, /wrong type \(number for a string\)/, /too long|huge string/, /too short/, /huge string \(1048577/, /deep nesting \(1000 levels of objects\)/, /deep nesting \(1000 levels of arrays\)/, /extra property/, /not an object/]) {
      expect(kinds).toMatch(category);
    }
    if (spec.slug !== 'login' && spec.slug !== 'campaign') expect(kinds).toMatch(/wrong enum value|odd unicode/);
  });

  it('huge bodies are at least 1 MiB and below the reference target\'s 2 MiB body limit', () => {
    const huge = invalidBodies(spec).filter((b) => b.kind.includes('huge string'));
    expect(huge).toHaveLength(1);
    const bytes = Buffer.byteLength(JSON.stringify(huge[0]!.body));
    expect(bytes).toBeGreaterThanOrEqual(1024 * 1024);
    expect(bytes).toBeLessThan(2 * 1024 * 1024);
  });

  it('at least 10 valid bodies, each valid per the schema', () => {
    const bodies = validBodies(spec);
    expect(bodies.length).toBeGreaterThanOrEqual(10);
    for (const { kind, body } of bodies) expect(validate(body), `${kind}: ${JSON.stringify(validate.errors)}`).toBe(true);
  });
});

describe('odd unicode', () => {
  it('sends lone surrogates as JSON escapes, RTL overrides and NUL', () => {
    const text = invalidBodies(BODY_OPERATIONS.sendMessage).map((b) => JSON.stringify(b.body)).join('\n');
    expect(text).toContain('\\ud800');
    expect(text).toContain('\u202e');
    expect(text).toContain('\\u0000');
  });
});

describe('profile rules beyond the schema', () => {
  it('valid campaigns are scheduled in the future, when scheduled', () => {
    for (const { body } of validBodies(BODY_OPERATIONS.createCampaign)) {
      const schedule = (body as { schedule?: string }).schedule;
      if (schedule !== undefined) expect(Date.parse(schedule)).toBeGreaterThan(Date.now());
    }
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
