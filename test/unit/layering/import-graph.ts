/**
 * The import graph of src/ and suites/: every .ts (and .mjs) file, and each relative import it makes — static,
 * type-only, re-exports and dynamic `import()` alike — resolved to the file it names. TypeScript's own pre-processor
 * finds the imports, so a string in a comment or a template is never read as one.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** Repository-relative paths with forward slashes: `src/load/result.ts`. */
export type ImportGraph = ReadonlyMap<string, readonly string[]>;

export const repoRoot = resolve(import.meta.dirname, '../../..');

/** Walked roots; src/target's and src/reporters' client-side .js assets run in a browser and are not walked. */
const roots = ['src', 'suites'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return /\.(ts|mjs)$/.test(e.name) && !e.name.endsWith('.d.ts') ? [path] : [];
  });
}

function toRepoPath(absolute: string): string {
  return relative(repoRoot, absolute).split('\\').join('/');
}

/** The file a relative specifier names: as written, or its .ts source when written with the emitted .js name. */
function resolveSpecifier(fromFile: string, specifier: string): string {
  const target = resolve(dirname(fromFile), specifier);
  if (existsSync(target) && statSync(target).isFile()) return target;
  const asTs = target.replace(/\.js$/, '.ts');
  if (existsSync(asTs)) return asTs;
  if (existsSync(`${target}.ts`)) return `${target}.ts`;
  if (existsSync(join(target, 'index.ts'))) return join(target, 'index.ts');
  throw new Error(`${toRepoPath(fromFile)}: import '${specifier}' names no file`);
}

/** Relative import specifiers of one file's text (bare package names are not the tree's layering). */
export function relativeImports(text: string): string[] {
  const info = ts.preProcessFile(text, true, true);
  return info.importedFiles.map((f) => f.fileName).filter((name) => name.startsWith('./') || name.startsWith('../'));
}

/**
 * The graph of the tree: each walked file → the repository files it imports. Imports of files outside the walked
 * roots (package.json, schemas/*.json) are kept: the checker decides what they may be.
 */
export function readImportGraph(): ImportGraph {
  const graph = new Map<string, string[]>();
  for (const root of roots) {
    for (const file of sourceFiles(join(repoRoot, root))) {
      const targets = relativeImports(readFileSync(file, 'utf8')).map((s) => toRepoPath(resolveSpecifier(file, s)));
      graph.set(toRepoPath(file), [...new Set(targets)].sort());
    }
  }
  return graph;
}
