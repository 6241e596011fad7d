/**
 * Where the package's own files are: schemas/, scenarios/, package.json and the HTML client scripts. The same
 * module runs from the sources (src/…, under tsx or vitest) and from the build (dist/src/…, plain node), at
 * different depths, so paths are resolved from the package root found once by walking up to the first
 * directory that holds a package.json, never by counting `../` from the calling file.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

function findRoot(): URL {
  let dir = new URL('./', import.meta.url);
  for (;;) {
    if (existsSync(new URL('package.json', dir))) return dir;
    const parent = new URL('../', dir);
    if (parent.href === dir.href) throw new Error(`no package.json above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
}

/** The package root as a directory URL (ends with `/`). */
export const PACKAGE_ROOT: URL = findRoot();

/** A file or directory of the package, by its path from the package root (`schemas/api/`). */
export function packageUrl(path: string): URL {
  return new URL(path, PACKAGE_ROOT);
}

/** The same as a file-system path. */
export function packagePath(path: string): string {
  return fileURLToPath(packageUrl(path));
}
