import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isRecord } from '../../../src/config/key-path.ts';
import { registerFileKind, validateFile } from '../../../src/config/index.ts';
import { FileNotFoundError } from '../../../src/errors/harness-errors.ts';

const fixtures = fileURLToPath(new URL('../../fixtures/configs/', import.meta.url));
const root = fileURLToPath(new URL('../../../', import.meta.url));

describe('validateFile', () => {
  it('treats the root config as a valid config', () => {
    expect(validateFile(`${root}harness.config.yaml`, { env: {} })).toEqual({ kind: 'config', issues: [] });
  });

  it('reports a broken config', () => {
    const { kind, issues } = validateFile(`${fixtures}broken/misspelt-nested-key.yaml`, { env: {} });
    expect(kind).toBe('config');
    expect(issues).toHaveLength(1);
  });

  it('a missing file throws FileNotFoundError', () => {
    expect(() => validateFile(`${fixtures}missing.yaml`)).toThrow(FileNotFoundError);
  });

  it('dispatches to a registered kind whose detect() matches', () => {
    // A key no shipped kind claims: the test files share one module graph, where other kinds are registered too.
    registerFileKind({
      kind: 'test-scenario',
      detect: (doc) => isRecord(doc.data) && 'testKind' in doc.data,
      validate: (doc, file) => (isRecord(doc.data) && doc.data.testKind === 'bad' ? [{ file, path: 'testKind', message: 'unknown testKind' }] : []),
    });
    const dir = `${fixtures}kinds/`;
    expect(validateFile(`${dir}scenario.yaml`)).toEqual({ kind: 'test-scenario', issues: [] });
    expect(validateFile(`${dir}bad-scenario.yaml`).issues.map((i) => i.message)).toEqual(['unknown testKind']);
    // Shapes no kind claims are configs.
    expect(validateFile(`${fixtures}good/empty.yaml`).kind).toBe('config');
  });
});
