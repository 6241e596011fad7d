import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SchemaValidator } from '../../../src/conformance/schema-validator.ts';
import { apiAjv, schemaId } from '../../../src/schemas/registry.ts';
import { BodyValidator, sharedBodyValidator } from '../../../src/target/http/validation.ts';
import { isValid, loadReplacement } from '../../../suites/inputs/lib/schema-walk.ts';

const dir = mkdtempSync(join(tmpdir(), 'harness-shared-ajv-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A replacement schema file under a $id that is not an API schema's. */
function schemaFile(name: string, schema: object): string {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(schema));
  return file;
}

describe('the process-wide API Ajv', () => {
  it('is one instance holding every API schema, compiled once for every caller', () => {
    expect(apiAjv()).toBe(apiAjv());
    const compiled = apiAjv().getSchema(schemaId('send-message-request'));
    expect(compiled).toBeTypeOf('function');
    expect(apiAjv().getSchema(schemaId('send-message-request'))).toBe(compiled);
  });

  it('serves the reference target and the checks with the same verdicts as before', () => {
    const checks = new SchemaValidator({ errorSchema: schemaId('problem-details') });
    const target = sharedBodyValidator();
    const good = { to: '15551234567', type: 'text', text: { body: 'hi' } };
    const bad = { to: '15551234567', type: 'text', text: { body: 'hi' }, privileged: true };
    expect(checks.validate('send-message-request', good)).toEqual({ ok: true });
    expect(target.errors('send-message-request', good)).toEqual([]);
    const refused = checks.validate('send-message-request', bad);
    expect(refused.ok).toBe(false);
    expect(target.errors('send-message-request', bad)).toContainEqual({ path: '/privileged', message: 'is not allowed' });
    // Each reads the errors of its own call: the other's call in between changes nothing it returned.
    expect(new BodyValidator().errors('send-message-request', bad)).toEqual(target.errors('send-message-request', bad));
  });

  it('never receives a schema file of a config: a validator given one keeps it to itself', () => {
    const id = 'https://example.test/shared-ajv/error.json';
    const file = schemaFile('error.json', { $id: id, type: 'object', required: ['code'] });
    const withFile = new SchemaValidator({ errorSchema: file });
    expect(withFile.validate('error', { code: 'x' })).toEqual({ ok: true });
    expect(withFile.validate('error', {}).ok).toBe(false);
    expect(apiAjv().getSchema(id)).toBeUndefined();
    // A later validator naming that $id (not a file) does not see the earlier run's file.
    expect(() => new SchemaValidator({ errorSchema: id })).toThrow(/no schema with \$id/);
  });

  it('keeps the input generator\'s replacement schemas out of it too', () => {
    const id = 'https://example.test/shared-ajv/replacement.json';
    expect(isValid('send-message-request', { to: '15551234567', type: 'text', text: { body: 'hi' } })).toBe(true);
    const loaded = loadReplacement(schemaFile('replacement.json', { $id: id, type: 'string', minLength: 2 }));
    expect(loaded).toBe(id);
    expect(isValid(id, 'ok')).toBe(true);
    expect(isValid(id, 'x')).toBe(false);
    expect(apiAjv().getSchema(id)).toBeUndefined();
  });
});
