/**
 * The inputs suite honours a target's own request schema (config api.schemas): a target that describes a
 * stricter rule than the reference keeps (text.body at most 100 characters) is held to it — the generated case
 * names the rule's source as the target's schema — while rules only the built-in schema has are not tested.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceTarget } from '../../../src/target/index.ts';
import type { StartedReferenceTarget } from '../../../src/target/types.ts';
import { onReference, resultOf, runHarness } from '../../helpers/run-harness.ts';

let target: StartedReferenceTarget;
const schemaFile = join(mkdtempSync(join(tmpdir(), 'inputs-replacement-')), 'send.json');

beforeAll(async () => {
  target = await startReferenceTarget({ host: '127.0.0.1', port: 0, rateLimit: { quota: 100_000 } });
  writeFileSync(schemaFile, JSON.stringify({
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    required: ['to', 'type', 'text'],
    additionalProperties: false,
    properties: {
      to: { type: 'string', pattern: '^[1-9][0-9]{6,14}$' },
      type: { const: 'text' },
      text: { type: 'object', required: ['body'], additionalProperties: false, properties: { body: { type: 'string', minLength: 1, maxLength: 100 } } },
    },
  }));
});

afterAll(async () => {
  await target.close();
});

describe('inputs with a replacement send-message schema', () => {
  it('generates from it: its own limit is tested and named as its source', async () => {
    const outcome = await runHarness({ ...onReference(target), suites: ['inputs'], config: { api: { schemas: { 'send-message-request': schemaFile } } } });
    // Valid bodies come from the replacement (long form, ≤ 100 characters): the reference takes them.
    expect(resultOf(outcome, 'inputs.send-message.valid-accepted').status).toBe('passed');
    // The reference keeps 4096 characters, the described target 100: the 101-character body is not refused; and
    // the described target has no short form, which the reference takes. Nothing else is held against it.
    // Both break what a field holds (the values family); the check of which fields a body has passes.
    const invalid = resultOf(outcome, 'inputs.send-message.invalid-rejected.values');
    expect(invalid.status, invalid.message).toBe('failed');
    const cases = (invalid.evidence?.details as { actual: Array<{ kind: string; source: string; status: number }> }).actual;
    expect(cases.map((c) => c.kind).sort()).toEqual(['too long (101 characters) at /text/body', 'wrong type (string for an object) at /text']);
    for (const c of cases) expect(c.source).toBe("api.schemas send-message-request (the target's own schema)");
    expect(resultOf(outcome, 'inputs.send-message.invalid-rejected.fields').status).toBe('passed');
  });
});
