/** Reads a file named by the user; every way that can fail is a FileNotFoundError that says which. */
import { isAbsolute, relative, resolve } from 'node:path';
import { readBoundedSync } from '../util/read-bounded.ts';

/**
 * The largest config, suite or scenario file read. These are hand-written files of a few KB (the biggest shipped
 * suite is far below 100 KB); a 55 MB YAML file took 28 minutes and 2.3 GB to parse, so a file past this is refused
 * (exit 2), naming its size — counted in bytes read, so a device such as /dev/zero is refused too. @default 8 MiB
 */
export const MAX_INPUT_FILE_BYTES = 8 * 1024 * 1024;

export function readTextFile(file: string): string {
  return readBoundedSync(file, { maxBytes: MAX_INPUT_FILE_BYTES, what: 'config, suite and scenario files' }).toString('utf8');
}

/**
 * How messages name a file: relative to the working directory when it lies below it (what the user typed,
 * usually), else as given. The CLI resolves paths to absolute ones; messages should not show that.
 */
export function displayPath(file: string): string {
  const rel = relative(process.cwd(), resolve(file));
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : file;
}
