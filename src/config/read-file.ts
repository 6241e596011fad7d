/** Reads a file named by the user; every way that can fail is a FileNotFoundError that says which. */
import { readFileSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { FileNotFoundError } from '../errors.ts';

function reason(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES' || code === 'EPERM') return 'cannot be read: permission denied';
  return `cannot be read: ${code ?? (err as Error).message}`;
}

export function readTextFile(file: string): string {
  try {
    if (statSync(file).isDirectory()) throw new FileNotFoundError(file, 'is a directory, not a file');
    return readFileSync(file, 'utf8');
  } catch (err) {
    if (err instanceof FileNotFoundError) throw err;
    throw new FileNotFoundError(file, reason(err));
  }
}

/**
 * How messages name a file: relative to the working directory when it lies below it (what the user typed,
 * usually), else as given. The CLI resolves paths to absolute ones; messages should not show that.
 */
export function displayPath(file: string): string {
  const rel = relative(process.cwd(), resolve(file));
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : file;
}
