/**
 * Reads a file a user named, bounded by the bytes actually read. A size from stat is no bound: a device
 * (/dev/zero, /dev/urandom), a FIFO or /proc file says 0 and never ends, so `harness validate /dev/zero` grew by
 * 100 MB a second until it was killed. Whatever the file is, at most `maxBytes` (+ one chunk) are read, and a file
 * past that is refused naming the bound: exit 2, like a missing file.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { FileNotFoundError } from '../errors/harness-errors.ts';

const CHUNK = 64 * 1024;

export interface ReadBound {
  /** Bytes read at most; a file with more is refused. */
  maxBytes: number;
  /** What such files are, for the message: "config, suite and scenario files". */
  what: string;
}

function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1).replace(/\.0$/, '')} MiB`;
}

function refusal(file: string, bound: ReadBound, knownSize?: number): FileNotFoundError {
  const found = knownSize !== undefined ? `is ${(knownSize / 1024 / 1024).toFixed(1)} MiB` : `holds more than ${mib(bound.maxBytes)} (stopped reading there)`;
  return new FileNotFoundError(file, `${found}; ${bound.what} are read up to ${mib(bound.maxBytes)}`);
}

function reason(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES' || code === 'EPERM') return 'cannot be read: permission denied';
  if (code === 'EISDIR') return 'is a directory, not a file';
  return `cannot be read: ${code ?? (err as Error).message}`;
}

/**
 * The chunks read so far, refused past the bound: the sync and the async reader differ only in how they read a
 * chunk. `add` takes the chunk and the bytes read into it and answers false at the end of the file.
 */
class BoundedChunks {
  readonly #chunks: Buffer[] = [];
  #total = 0;

  constructor(private readonly file: string, private readonly bound: ReadBound) {}

  add(chunk: Buffer, bytesRead: number): boolean {
    if (bytesRead === 0) return false;
    this.#total += bytesRead;
    if (this.#total > this.bound.maxBytes) throw refusal(this.file, this.bound);
    this.#chunks.push(bytesRead === CHUNK ? chunk : chunk.subarray(0, bytesRead));
    return true;
  }

  bytes(): Buffer {
    return Buffer.concat(this.#chunks, this.#total);
  }
}

/** A size from stat refuses early only when it is a regular file's: a device's or a FIFO's says nothing. */
function checkSize(file: string, bound: ReadBound, stats: { isFile(): boolean; size: number }): void {
  if (stats.isFile() && stats.size > bound.maxBytes) throw refusal(file, bound, stats.size);
}

function readError(file: string, err: unknown, describe: (err: unknown) => string): FileNotFoundError {
  return err instanceof FileNotFoundError ? err : new FileNotFoundError(file, describe(err));
}

/** The whole file as bytes, or a FileNotFoundError (exit 2) saying why not: missing, a folder, past the bound. */
export function readBoundedSync(file: string, bound: ReadBound): Buffer {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (err) {
    throw new FileNotFoundError(file, reason(err));
  }
  try {
    const stats = fstatSync(fd);
    if (stats.isDirectory()) throw new FileNotFoundError(file, 'is a directory, not a file');
    checkSize(file, bound, stats);
    const chunks = new BoundedChunks(file, bound);
    for (;;) {
      const chunk = Buffer.allocUnsafe(CHUNK);
      if (!chunks.add(chunk, readSync(fd, chunk, 0, CHUNK, null))) return chunks.bytes();
    }
  } catch (err) {
    throw readError(file, err, reason);
  } finally {
    closeSync(fd);
  }
}

/** readBoundedSync without blocking the event loop (a signal can still end the command while it reads). */
export async function readBounded(file: string, bound: ReadBound, describe: (err: unknown) => string = reason): Promise<Buffer> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (err) {
    throw new FileNotFoundError(file, describe(err));
  }
  try {
    const stats = await handle.stat();
    if (stats.isDirectory()) throw new FileNotFoundError(file, describe(Object.assign(new Error('is a directory'), { code: 'EISDIR' })));
    checkSize(file, bound, stats);
    const chunks = new BoundedChunks(file, bound);
    for (;;) {
      const chunk = Buffer.allocUnsafe(CHUNK);
      if (!chunks.add(chunk, (await handle.read(chunk, 0, CHUNK, null)).bytesRead)) return chunks.bytes();
    }
  } catch (err) {
    throw readError(file, err, describe);
  } finally {
    await handle.close();
  }
}
