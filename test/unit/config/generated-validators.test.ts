/**
 * The validators of src/config/generated/ are generated (scripts/build/compile-schemas.ts): this test generates
 * them again and fails when a committed module differs (fix: `npm run schemas:compile`). It also checks that a
 * generated validator reports exactly what Ajv compiling the schema at run time reports, and that a module whose
 * schema files changed is not used.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generatedValidators } from '../../../scripts/build/compile-schemas.ts';
import { apiSchemaRefs, apiSourceHash, apiValidators, compileFixed, fixedValidator, sourceFiles, sourceHash, type FixedSchemaName } from '../../../src/config/fixed-schemas.ts';
import * as api from '../../../src/config/generated/api-validators.ts';
import * as config from '../../../src/config/generated/harness-config-validator.ts';
import * as report from '../../../src/config/generated/report-validator.ts';
import * as scenario from '../../../src/config/generated/scenario-validator.ts';
import * as suite from '../../../src/config/generated/suite-validator.ts';
import { createAjv, loadApiSchemas, schemaId } from '../../../src/schemas/registry.ts';

const GENERATED = { 'harness-config': config, scenario, suite, report } as const;

// Inputs that break many rules at once: unknown keys, wrong types, bounds, formats, patterns, enums, nesting.
const BAD: Record<FixedSchemaName, unknown[]> = {
  'harness-config': [
    { target: { baseUrl: 5, bogus: true }, load: { vus: -1, scenarios: 'smoke' }, report: { formats: ['pdf'] } },
    { target: { baseUrl: 'not a url', timeoutMs: 'slow' }, conformance: { suites: [1, 1] }, api: { paths: { x: 3 } } },
    'a string',
  ],
  scenario: [
    { name: 3, executor: 'bogus', stages: [{ duration: 5 }], thresholds: { x: 1 } },
    { name: 'ok', vus: 1e9, flow: [{ method: 'FETCH', path: 7 }] },
  ],
  suite: [
    { suite: 5, checks: [{ id: 'Bad Id', steps: [{ request: { method: 'FETCH' }, expect: { status: 'x' } }] }] },
    { version: 2, extra: true },
  ],
  report: [
    { schemaVersion: 1, checks: [{ status: 'maybe' }], bogus: 1 },
    { schemaVersion: 'one', startedAt: 'yesterday', summary: { total: -1 } },
    JSON.parse(readFileSync(new URL('../../fixtures/k6/summary-export.json', import.meta.url), 'utf8')) as unknown,
  ],
};

describe('generated schema validators', () => {
  it('src/config/generated/* equal what `npm run schemas:compile` writes now', () => {
    for (const [path, text] of Object.entries(generatedValidators())) {
      expect(readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8'), `${path} is out of date: run npm run schemas:compile`).toBe(text);
    }
  }, 60_000);

  it('each module is made from its schema files and is the one in use while they match', () => {
    for (const name of Object.keys(GENERATED) as FixedSchemaName[]) {
      expect(GENERATED[name].sourceHash, name).toBe(sourceHash(name));
      expect(fixedValidator(name, GENERATED[name]), name).toBe(GENERATED[name].validate);
    }
    expect(sourceFiles('report').filter((f) => f.startsWith('schemas/api/')).length).toBeGreaterThan(10);
    expect(sourceFiles('harness-config')).toEqual(['schemas/harness-config.schema.json']);
  });

  it('the API module holds a validator for every API schema and each of its $defs, the ones createAjv compiles', () => {
    expect(api.sourceHash).toBe(apiSourceHash());
    const generated = apiValidators(api);
    expect([...generated.keys()]).toEqual(apiSchemaRefs());
    for (const name of loadApiSchemas().keys()) expect(generated.get(schemaId(name)), name).toBeTypeOf('function');
    expect(generated.get(`${schemaId('send-message-request')}#/$defs/text`)).toBeTypeOf('function');
    const ajv = createAjv();
    // Bodies that break the schemas in many ways at once, and a valid send.
    const bodies: unknown[] = [{}, { to: 5, text: '', extra: 1 }, { to: '15551234567', text: 'hi' }, [], 'x', { id: 3, timestamp: '2025-13-01T00:00:00Z', url: 'ftp:x' }];
    for (const [id, validate] of generated) {
      const compiled = ajv.getSchema(id)!;
      for (const body of bodies) {
        const expected = compiled(body);
        const expectedErrors = structuredClone(compiled.errors);
        expect(validate(body), id).toBe(expected);
        expect(validate.errors ?? null, `${id}: ${JSON.stringify(body)}`).toEqual(expectedErrors ?? null);
      }
    }
  }, 60_000);

  it('a module made from other schema files is not used: the schema is compiled from the files instead', () => {
    const stale = { validate: () => true, sourceHash: '0'.repeat(64) };
    const validate = fixedValidator('suite', stale);
    expect(validate).not.toBe(stale.validate);
    expect(validate({ version: 2, extra: true })).toBe(false);
  });

  it('reports the same errors, in the same order, as the schema compiled at run time', () => {
    for (const name of Object.keys(GENERATED) as FixedSchemaName[]) {
      const generated = GENERATED[name].validate as ReturnType<typeof compileFixed>['validate'];
      const { validate: compiled } = compileFixed(name);
      for (const input of BAD[name]) {
        const expectedValid = compiled(input);
        const expectedErrors = structuredClone(compiled.errors);
        expect(expectedValid, `${name}: a bad input`).toBe(false);
        expect(expectedErrors?.length, name).toBeGreaterThan(0);
        expect(generated(input), name).toBe(false);
        expect(generated.errors, `${name}: ${JSON.stringify(input).slice(0, 80)}`).toEqual(expectedErrors);
      }
    }
  }, 60_000);
});
