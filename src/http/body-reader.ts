/**
 * Reading a response body without trusting its size. Only the first `keepBytes` are kept (API answers are small;
 * a hostile target's 10 MB bodies are not evidence anyone reads); the rest is counted and discarded so the
 * connection stays reusable, up to `discardBytes`, after which the stream is destroyed. The kept text carries no
 * marker: an ASCII body stays a one-byte string in V8, and `truncated` / `bytes` say what was cut.
 */
import { isAscii } from 'node:buffer';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Bytes of a body kept as text: far above the answers the suites read (a page of messages is tens of KB), far
 * below what a hostile target sends. Measured with a target answering 10 MB to everything (every suite): peak RSS
 * 0.65 GB at 1 MiB, 1.5 GB at 2 MiB (garbage the GC collects late), so 1 MiB. What a check's log holds is bounded
 * apart (exchange.ts). @default 1 MiB
 */
export const KEEP_BODY_BYTES = 1024 * 1024;
/** Bytes read and thrown away after the kept part before the stream is cut. @default 32 MiB */
export const DISCARD_BODY_BYTES = 32 * 1024 * 1024;

export interface BodyRead {
  text: string;
  /** Bytes received in all (kept or not). */
  bytes: number;
  /** True when `text` holds only the first `keepBytes` bytes. */
  truncated: boolean;
}

/**
 * Bytes kept of a body sent with a Content-Encoding (gzip, br …). The harness never asks for one and never
 * inflates one (a 2 MB gzip bomb is 2 GiB inflated): such a body is opaque bytes, kept only as far as evidence shows.
 */
export const ENCODED_KEEP_BYTES = 4096;

type BodyStream = AsyncIterable<Buffer> & { destroy?: (err?: Error) => void };

export interface ReadBodyOptions {
  /** The response's Content-Encoding: anything but identity keeps ENCODED_KEEP_BYTES only. */
  contentEncoding?: string;
}

export async function readBody(body: BodyStream, keepBytes = KEEP_BODY_BYTES, discardBytes = DISCARD_BODY_BYTES, options: ReadBodyOptions = {}): Promise<BodyRead> {
  const encoding = options.contentEncoding?.trim().toLowerCase();
  if (encoding && encoding !== 'identity') keepBytes = Math.min(keepBytes, ENCODED_KEEP_BYTES);
  const chunks: Buffer[] = [];
  let kept = 0;
  let bytes = 0;
  for await (const chunk of body) {
    bytes += chunk.length;
    if (kept < keepBytes) {
      const part = kept + chunk.length > keepBytes ? chunk.subarray(0, keepBytes - kept) : chunk;
      chunks.push(part);
      kept += part.length;
    }
    if (bytes - kept > discardBytes) {
      body.destroy?.();
      break;
    }
  }
  const buffer = Buffer.concat(chunks, kept);
  // The cap is on memory, not on bytes received: text with any character above U+00FF is a two-byte string in V8
  // (invalid UTF-8 decodes to U+FFFD, one per byte), twice the bytes kept. Such text keeps half as many bytes: the
  // first half is decoded alone first, so a two-byte body never exists at full size. Bytes that are all ASCII decode
  // to one-byte text: no need to decode a half to find out.
  const half = keepBytes >> 1;
  const ascii = isAscii(buffer);
  let read: BodyRead | undefined;
  if (kept > half && !ascii) {
    const front = buffer.toString('utf8', 0, half);
    if (/[^\x00-\xff]/.test(front)) read = { text: front, bytes, truncated: true };
  }
  // ASCII bytes are the same text in Latin-1, which V8 copies as they are: its UTF-8 decoder is many times slower
  // per byte, and a target answering megabytes is read a megabyte per answer.
  read ??= { text: buffer.toString(ascii ? 'latin1' : 'utf8'), bytes, truncated: bytes > kept };
  // What this read leaves for the collector: the kept bytes and their text (one byte a character for ASCII, which
  // V8 keeps as a one-byte string; two otherwise, the most it can take). The bytes past the kept part are not
  // counted: each chunk was dropped as soon as it was counted (young garbage, freed without a full collection).
  collectAfter(kept + (ascii ? 1 : 2) * read.text.length);
  return read;
}

/**
 * Body bytes kept (and decoded into text) after which a full garbage collection is asked for. What the
 * harness keeps is bounded by its caps, but V8 lets garbage grow to a multiple of what is live before it
 * collects: a target answering 2 MiB to everything drove the heap to 440 MB of dead bodies over a 100 MB live set.
 * An ordinary run (answers of a few KB) never reaches this; a hostile one collects every 64 MiB of bodies kept.
 */
export const COLLECT_EVERY_BYTES = 64 * 1024 * 1024;
let sinceCollect = 0;
let collector: (() => void) | null | undefined;

function collectAfter(bytes: number): void {
  sinceCollect += bytes;
  if (sinceCollect < COLLECT_EVERY_BYTES) return;
  sinceCollect = 0;
  collector ??= exposeGc();
  collector?.();
}

/** The engine's own `gc`, made callable at run time (the flag `--expose-gc` then `gc` from a fresh context). */
function exposeGc(): (() => void) | null {
  const existing = (globalThis as { gc?: () => void }).gc;
  if (typeof existing === 'function') return existing;
  try {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as unknown;
    return typeof gc === 'function' ? (gc as () => void) : null;
  } catch {
    return null;
  }
}
