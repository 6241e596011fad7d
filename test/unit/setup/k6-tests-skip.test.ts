/**
 * A newcomer's `npm test` has no k6 (no registry ships it): every test that runs k6 must skip loudly then, never
 * fail with "no k6". That takes `requireK6(ctx)` (test/helpers/k6.ts) at the start of each such test; a test that
 * threw k6's missing reason itself failed on a fresh clone. Read from the test files, so a new k6 test keeps it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../helpers/cli.ts';

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? testFiles(join(dir, e.name)) : e.name.endsWith('.test.ts') ? [join(dir, e.name)] : []));
}

const K6_FILES = testFiles(join(REPO_ROOT, 'test')).filter((file) => /from '(\.\.\/)+helpers\/k6\.ts'/.test(readFileSync(file, 'utf8')));

describe('tests that run k6', () => {
  it('are found (the k6 export, merge and flow tests)', () => {
    expect(K6_FILES.length).toBeGreaterThanOrEqual(3);
  });

  it.each(K6_FILES.map((file) => [relative(REPO_ROOT, file), file]))('%s: each k6 test starts with requireK6(ctx), so it skips without k6', (_name, file) => {
    const text = readFileSync(file, 'utf8');
    const starts = [...text.matchAll(/\bit(?:\.skipIf\([^)]*\))?\((?:[^()]|\([^()]*\))*?async \((\w*)\) => \{/g)];
    expect(starts.length).toBeGreaterThan(0);
    for (const start of starts) {
      const body = text.slice(start.index! + start[0].length, start.index! + start[0].length + 400);
      expect(start[1], `${start[0].slice(0, 80)}: takes the test context`).toBe('ctx');
      expect(body.trimStart().startsWith('requireK6(ctx);'), `${start[0].slice(0, 80)}: starts with requireK6(ctx)`).toBe(true);
    }
    expect(text).not.toMatch(/throw new Error\(k6\.missing/);
  });
});
