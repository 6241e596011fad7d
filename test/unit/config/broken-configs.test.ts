/**
 * The broken-config corpus: every fixture in test/fixtures/configs/broken/ is loaded and its formatted issues
 * must equal the `.expected.txt` beside it, line for line. The file names in messages are normalised to
 * `broken/<name>.yaml` so the test does not depend on the working directory.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadConfig, validateFile } from '../../../src/config/index.ts';
import { ConfigError, formatConfigIssue, type ConfigIssue } from '../../../src/errors/harness-errors.ts';
import { ExitCode } from '../../../src/errors/exit-codes.ts';

const dir = fileURLToPath(new URL('../../fixtures/configs/broken/', import.meta.url));
const fixtures = readdirSync(dir).filter((f) => f.endsWith('.yaml')).sort();

function normalised(issues: readonly ConfigIssue[]): string[] {
  return issues.map((issue) => formatConfigIssue({ ...issue, file: issue.file && `broken/${basename(issue.file)}` }));
}

function expected(fixture: string): string[] {
  return readFileSync(join(dir, fixture.replace(/\.yaml$/, '.expected.txt')), 'utf8').trimEnd().split('\n');
}

function loadError(fixture: string): ConfigError {
  try {
    loadConfig(join(dir, fixture), { env: {} });
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error(`${fixture} loaded without error`);
}

describe('broken config corpus', () => {
  it('has at least 12 fixtures, each with its expected messages', () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(12);
    const texts = readdirSync(dir).filter((f) => f.endsWith('.expected.txt'));
    expect(texts.map((f) => f.replace('.expected.txt', '.yaml')).sort()).toEqual(fixtures);
  });

  it.each(fixtures)('%s fails with exactly the expected messages', (fixture) => {
    const error = loadError(fixture);
    expect(error.code).toBe('HARNESS_ERR_CONFIG');
    expect(error.exitCode).toBe(ExitCode.InvalidConfig);
    expect(normalised(error.issues)).toEqual(expected(fixture));
  });

  it.each(fixtures)('%s: every issue has a file, line and column; the error message lists them all', (fixture) => {
    const error = loadError(fixture);
    for (const issue of error.issues) {
      expect(issue.file).toBeTruthy();
      expect(issue.line).toBeGreaterThan(0);
      expect(issue.column).toBeGreaterThan(0);
    }
    expect(error.message.split('\n')).toHaveLength(error.issues.length);
    expect(error.message).not.toMatch(/\n\s+at /); // no stack trace in what users read
  });

  it.each(fixtures)('%s: harness validate reports the same issues', (fixture) => {
    const { kind, issues } = validateFile(join(dir, fixture), { env: {} });
    expect(kind).toBe('config');
    expect(normalised(issues)).toEqual(expected(fixture));
  });

  it('reports every error of a file, sorted by line', () => {
    const { issues } = loadError('several-errors.yaml');
    expect(issues.length).toBe(7);
    const lines = issues.map((i) => i.line ?? 0);
    expect(lines).toEqual([...lines].sort((a, b) => a - b));
  });

  it('gives a suggestion only for a close misspelling', () => {
    expect(loadError('misspelt-nested-key.yaml').issues[0]).toMatchObject({
      path: 'target.baseUrll',
      message: 'unknown key "baseUrll"',
      suggestion: 'baseUrl',
      line: 2,
      column: 3,
    });
    expect(loadError('unknown-key-without-suggestion.yaml').issues[0]?.suggestion).toBeUndefined();
  });
});
