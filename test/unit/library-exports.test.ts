/**
 * Every function, class and constant docs/library.md names (and the two the load and import sections
 * name, `mergeSnapshots` and `importK6`) is exported from the package root, src/index.ts — what `exports` lets a
 * consumer import; deep imports are blocked by the `exports` map.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as library from '../../src/index.ts';
import { REPO_ROOT } from '../helpers/cli.ts';

const PAGE = readFileSync(`${REPO_ROOT}docs/library.md`, 'utf8');

/** The backticked identifiers of docs/library.md, prose and code blocks alike. */
function namesInLibrarySection(): string[] {
  const section = PAGE;
  const prose = [...section.matchAll(/`([A-Za-z][A-Za-z0-9]*)`/g)].map((m) => m[1]!);
  const imported = [...section.matchAll(/import \{([^}]+)\} from 'api-conformance-harness'/g)].flatMap((m) => m[1]!.split(',').map((n) => n.trim().replace(/^type /, '')));
  // Words in backticks that are not names of the API: package.json fields, the node binary, option names.
  const notNames = new Set(['exports', 'types', 'node', 'log', 'write']);
  return [...new Set([...prose, ...imported])].filter((n) => n && !notNames.has(n));
}

describe('the library API docs/library.md promises', () => {
  it('exports every name of docs/library.md, and mergeSnapshots and importK6', () => {
    const names = [...namesInLibrarySection(), 'mergeSnapshots', 'importK6'];
    expect(names.length).toBeGreaterThan(20);
    // A type has no runtime value: it counts when src/index.ts exports it by name (`type X` in an export list).
    const index = readFileSync(`${REPO_ROOT}src/index.ts`, 'utf8');
    const missing = names.filter((name) => !(name in library) && !new RegExp(`^export [^;]*\\btype ${name}\\b`, 'm').test(index) && !new RegExp(`^export type \\{[^}]*\\b${name}\\b`, 'm').test(index));
    expect(missing).toEqual([]);
  });
});
