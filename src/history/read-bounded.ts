/**
 * Reads one history file with a size bound: a history folder is whatever a CI cache restored, so a huge or endless
 * file (a log dropped in by mistake, a FIFO) must be refused by its size, never read whole into memory.
 */
import { open } from 'node:fs/promises';

/** A report.json with per-second histograms of a long run is a few MiB; far above that is not a run. */
export const MAX_ENTRY_BYTES = 64 * 1024 * 1024;

export type BoundedRead = { text: string } | { why: string };

export async function readBounded(path: string, maxBytes = MAX_ENTRY_BYTES): Promise<BoundedRead> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (err) {
    return { why: `cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})` };
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) return { why: 'not a regular file' };
    if (stat.size > maxBytes) return { why: `larger than ${size(maxBytes)} (${stat.size} bytes)` };
    // Read at most maxBytes + 1 whatever stat said: a file that grows while read is cut and refused, not followed.
    const buffer = Buffer.alloc(Math.min(maxBytes + 1, Math.max(stat.size, 0) + 1));
    let filled = 0;
    while (filled < buffer.length) {
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    if (filled > maxBytes) return { why: `larger than ${size(maxBytes)}` };
    return { text: buffer.subarray(0, filled).toString('utf8') };
  } finally {
    await handle.close();
  }
}

function size(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / 1024 / 1024)} MiB` : `${bytes} bytes`;
}
