import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as errors from '../../src/errors/harness-errors.ts';
import { EXIT_CODE_DOCS, ExitCode } from '../../src/errors/exit-codes.ts';

const instances: errors.HarnessError[] = [
  new errors.UsageError('u'),
  new errors.FileNotFoundError('f.yaml'),
  new errors.ConfigError([{ path: 'a', message: 'm' }]),
  new errors.TargetUnreachableError('http://127.0.0.1:1', 'ECONNREFUSED'),
  new errors.TargetLostError('http://127.0.0.1:1', 'smoke.list', 5, 'ECONNREFUSED'),
  new errors.UnknownSuiteError('s'),
  new errors.TargetStartError('t'),
  new errors.InvalidReportError('r.json', ['/verdict: must be equal to one of the allowed values']),
];

describe('error classes', () => {
  it('every class is covered by this table', () => {
    expect(instances.map((e) => e.constructor)).toEqual([...errors.ERROR_CLASSES]);
  });

  it.each(instances.map((e) => [e.code, e] as const))('%s has a stable code, an exit code and a name', (code, err) => {
    expect(code).toMatch(/^HARNESS_ERR_[A-Z_]+$/);
    expect(Object.values(ExitCode)).toContain(err.exitCode);
    expect(err.name).toBe(err.constructor.name);
    expect(errors.isHarnessError(err)).toBe(true);
  });

  it('codes are unique', () => {
    expect(new Set(instances.map((e) => e.code)).size).toBe(instances.length);
  });

  it('docs/errors.md lists every code with its exit code', () => {
    const doc = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
    for (const err of instances) expect(doc).toMatch(new RegExp(`\\| \`${err.code}\` \\| ${err.exitCode} \\|`));
  });

  it('formats config issues with file, line, path and suggestion', () => {
    expect(errors.formatConfigIssue({ file: 'h.yaml', line: 3, column: 5, path: 'target.baseUrll', message: 'unknown key "baseUrll"', suggestion: 'baseUrl' })).toBe(
      'h.yaml:3:5: target.baseUrll: unknown key "baseUrll" (did you mean "baseUrl"?)',
    );
  });
});

describe('exit codes', () => {
  it('the docs table lists every code with the same meaning', () => {
    const page = readFileSync(new URL('../../docs/reference/exit-codes.md', import.meta.url), 'utf8');
    for (const [code, text] of EXIT_CODE_DOCS) expect(page).toContain(`| ${code} | ${text} |`);
  });
});
