/**
 * Reads one history file with a size bound: a history folder is whatever a CI cache restored, so a huge or endless
 * file (a log dropped in by mistake, a FIFO) must be refused, never read whole into memory. The bytes are read by
 * the shared bounded reader (src/util/read-bounded.ts); this file adds only what a history skips a file for, in
 * words a skipped-file line can carry.
 */
import { stat } from 'node:fs/promises';
import { FileNotFoundError } from '../errors/harness-errors.ts';
import { readBounded as readUserFile } from '../util/read-bounded.ts';

/** A report.json with per-second histograms of a long run is a few MiB; far above that is not a run. */
export const MAX_ENTRY_BYTES = 64 * 1024 * 1024;

export type BoundedRead = { text: string } | { why: string };

export async function readBounded(path: string, maxBytes = MAX_ENTRY_BYTES): Promise<BoundedRead> {
  let stats;
  try {
    // stat, not open: opening a FIFO with no writer would wait for one.
    stats = await stat(path);
  } catch (err) {
    return { why: `cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})` };
  }
  if (!stats.isFile()) return { why: 'not a regular file' };
  if (stats.size > maxBytes) return { why: `larger than ${size(maxBytes)} (${stats.size} bytes)` };
  try {
    // Bounded by the bytes read, whatever stat said: a file that grows while read is refused, not followed.
    return { text: (await readUserFile(path, { maxBytes, what: 'history entries' })).toString('utf8') };
  } catch (err) {
    if (!(err instanceof FileNotFoundError)) throw err;
    return { why: /stopped reading/.test(err.message) ? `larger than ${size(maxBytes)}` : `cannot be read (${err.message.slice(path.length + 2)})` };
  }
}

function size(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / 1024 / 1024)} MiB` : `${bytes} bytes`;
}
