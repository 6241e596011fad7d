/**
 * The broken-suite corpus: every file in test/fixtures/suites/broken/ is validated as `harness validate` does,
 * and its formatted issues (file:line:column, path, message, suggestion) must equal the `.expected.txt` beside it.
 * The shipped example suite must be valid.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { validateFile } from '../../../src/config/index.ts';
import { formatConfigIssue } from '../../../src/errors/harness-errors.ts';
import { registerSuiteFileKind } from '../../../src/suite-file/file-kind.ts';
import { loadSuiteFile } from '../../../src/suite-file/load.ts';

registerSuiteFileKind();
const dir = fileURLToPath(new URL('../../fixtures/suites/broken/', import.meta.url));
const fixtures = readdirSync(dir).filter((f) => f.endsWith('.yaml')).sort();

describe('broken suite corpus', () => {
  it('has a fixture per kind of mistake, each with its expected messages', () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(6);
    expect(readdirSync(dir).filter((f) => f.endsWith('.expected.txt')).map((f) => f.replace('.expected.txt', '.yaml')).sort()).toEqual(fixtures);
  });

  for (const fixture of fixtures) {
    it(`${fixture}: every problem with file, line and path`, () => {
      const { kind, issues } = validateFile(join(dir, fixture), { env: {} });
      expect(kind).toBe('suite');
      const lines = issues.map((issue) => formatConfigIssue({ ...issue, file: issue.file && `broken/${basename(issue.file)}` }));
      expect(lines).toEqual(readFileSync(join(dir, fixture.replace(/\.yaml$/, '.expected.txt')), 'utf8').trimEnd().split('\n'));
      for (const issue of issues) expect(issue.line).toBeGreaterThan(0);
    });
  }

  it('the shipped example suite is valid and has checks at all three levels', () => {
    const spec = loadSuiteFile(fileURLToPath(new URL('../../../suites/voice.example.yaml', import.meta.url)), {});
    expect(spec.name).toBe('voice');
    expect(new Set(spec.checks.map((c) => c.level))).toEqual(new Set(['MUST', 'SHOULD', 'PROFILE']));
  });
});
