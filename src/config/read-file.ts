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

/**
 * The largest config, suite or scenario file read. These are hand-written files of a few KB (the biggest shipped
 * suite is far below 100 KB); a 55 MB YAML file took 28 minutes and 2.3 GB to parse, so a file past this is refused
 * before it is read (exit 2), naming its size. @default 8 MiB
 */
export const MAX_INPUT_FILE_BYTES = 8 * 1024 * 1024;

export function readTextFile(file: string): string {
  try {
    const stats = statSync(file);
    if (stats.isDirectory()) throw new FileNotFoundError(file, 'is a directory, not a file');
    if (stats.size > MAX_INPUT_FILE_BYTES) {
      throw new FileNotFoundError(file, `is ${(stats.size / 1024 / 1024).toFixed(1)} MiB; config, suite and scenario files are read up to ${MAX_INPUT_FILE_BYTES / 1024 / 1024} MiB`);
    }
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
