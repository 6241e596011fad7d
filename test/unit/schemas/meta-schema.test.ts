/**
 * Every schema the package ships is a valid draft 2020-12 schema. A `harness` process does not check this itself
 * (src/schemas/registry.ts adds the API schemas unchecked, and the format validators are generated ahead of time),
 * so this test is where a malformed keyword value in schemas/ is caught.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { createAjv, loadApiSchemas } from '../../../src/schemas/registry.ts';

const SCHEMAS = new URL('../../../schemas/', import.meta.url);

function shipped(): Array<{ file: string; schema: object }> {
  const top = readdirSync(SCHEMAS).filter((f) => f.endsWith('.schema.json'));
  const api = readdirSync(new URL('api/', SCHEMAS)).filter((f) => f.endsWith('.schema.json')).map((f) => `api/${f}`);
  return [...top, ...api].sort().map((file) => ({ file, schema: JSON.parse(readFileSync(new URL(file, SCHEMAS), 'utf8')) as object }));
}

describe('shipped JSON Schemas', () => {
  it('are all valid against the draft 2020-12 meta-schema', () => {
    const ajv = new Ajv2020({ strict: true });
    const files = shipped();
    expect(files.length).toBeGreaterThan(loadApiSchemas().size);
    for (const { file, schema } of files) {
      const valid = ajv.validateSchema(schema);
      expect(valid ? [] : ajv.errors, `schemas/${file}`).toEqual([]);
      expect(valid, `schemas/${file}`).toBe(true);
    }
  });

  it('a malformed keyword value is what the meta-schema check catches', () => {
    const ajv = new Ajv2020({ strict: true });
    expect(ajv.validateSchema({ type: 'object', properties: { a: { minLength: 'one' } } })).toBe(false);
  });

  it('a schema added beside the shipped ones is still checked against the meta-schema', () => {
    expect(() => createAjv([{ $id: 'https://example.test/bad.json', type: 'object', required: 'id' }])).toThrow(/schema is invalid/);
  });
});
