/**
 * Reading a response body without trusting its size. Only the first `keepBytes` are kept (API answers are small;
 * a hostile target's 10 MB bodies are not evidence anyone reads); the rest is counted and discarded so the
 * connection stays reusable, up to `discardBytes`, after which the stream is destroyed. The kept text carries no
 * marker: an ASCII body stays a one-byte string in V8, and `truncated` / `bytes` say what was cut.
 */

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

type BodyStream = AsyncIterable<Buffer> & { destroy?: (err?: Error) => void };

export async function readBody(body: BodyStream, keepBytes = KEEP_BODY_BYTES, discardBytes = DISCARD_BODY_BYTES): Promise<BodyRead> {
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
  return { text: Buffer.concat(chunks, kept).toString('utf8'), bytes, truncated: bytes > kept };
}
