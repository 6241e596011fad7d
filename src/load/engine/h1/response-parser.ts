/**
 * An incremental HTTP/1.1 response reader for the load sender: it finds where each response ends and keeps
 * nothing of it but the status (the load engine records status and timing; bodies are counted, never stored, so
 * memory stays bounded whatever the target sends). RFC 9112 framing:
 *   - a response to HEAD, and 1xx, 204 and 304 responses, have no body (§6.3 1–2); an interim 1xx (100, 102, 103)
 *     is skipped and the final response read after it; 101 is an error (this client never asks to upgrade);
 *   - Transfer-Encoding whose last coding is chunked: chunks up to the zero chunk and the trailer section (§7.1);
 *     Transfer-Encoding wins over Content-Length, and the connection is closed afterwards (§6.1);
 *   - Content-Length: that many bytes; differing or malformed values are an error (§6.3 5);
 *   - neither: the body runs to the end of the connection (§6.3 8), so the connection cannot be reused.
 * HTTP/1.1 keeps the connection unless `Connection: close`; HTTP/1.0 closes it unless `Connection: keep-alive`.
 *
 * Errors carry undici's codes for the same conditions (UND_ERR_HEADERS_OVERFLOW, UND_ERR_RES_EXCEEDED_MAX_SIZE,
 * HPE_* for a malformed response), so a report reads the same whichever sender ran (flows still use undici).
 */
import { Buffer } from 'node:buffer';
import { newResponseHead, readResponseHead, ResponseError } from './response-head.ts';

export { ResponseError } from './response-head.ts';

const CR = 13;
const LF = 10;

/** Where the reader is in the current response. */
const enum State {
  Head,
  BodyLength,
  BodyUntilClose,
  ChunkSize,
  ChunkData,
  ChunkDataEnd,
  Trailers,
  Done,
}

export interface ParserLimits {
  /** Largest status line plus header section, in bytes (undici's and Node's default: 16 KiB). */
  maxHeaderBytes: number;
  /** Largest body, in bytes: a longer one is cut and the request fails. */
  maxBodyBytes: number;
}

/** The longest chunk-size line (hex size plus extensions) or trailer line read before it counts as malformed. */
const MAX_LINE = 4096;

export class ResponseParser {
  /** Status of the final response (0 until its head has been read). */
  status = 0;
  /** Whether the connection may carry another request after this response. */
  keepAlive = true;
  /** Body bytes seen (never stored). */
  bodyBytes = 0;
  /** The target's `Keep-Alive: timeout=` in seconds, when it sent one (-1: not stated). */
  keepAliveTimeoutS = -1;

  #state = State.Done;
  #head = false;
  /** Head bytes gathered across reads, when a head does not arrive in one piece. */
  #pending: Buffer | undefined;
  #remaining = 0;
  #line = '';
  readonly #limits: ParserLimits;
  readonly #parsed = newResponseHead();

  constructor(limits: ParserLimits) {
    this.#limits = limits;
  }

  /** Starts reading the response to a new request (`head`: the request was HEAD, so no body follows). */
  reset(head: boolean): void {
    this.status = 0;
    this.keepAlive = true;
    this.bodyBytes = 0;
    this.keepAliveTimeoutS = -1;
    this.#state = State.Head;
    this.#head = head;
    this.#pending = undefined;
    this.#remaining = 0;
    this.#line = '';
  }

  /** True once the final response has been read completely. */
  get done(): boolean {
    return this.#state === State.Done;
  }

  /** True while the head of the final response is still unread. */
  get inHead(): boolean {
    return this.#state === State.Head;
  }

  /** True when the body runs to the end of the connection: an end there completes the response. */
  get readsUntilClose(): boolean {
    return this.#state === State.BodyUntilClose;
  }

  /**
   * Reads `buf[start, end)`. Returns the offset just past the response's last byte once it is complete (bytes after
   * it belong to nothing: pipelining is off), or `end` when more is needed. Throws ResponseError.
   */
  execute(buf: Buffer, start: number, end: number): number {
    let i = start;
    while (i < end) {
      switch (this.#state) {
        case State.Head:
          i = this.#readHead(buf, i, end);
          break;
        case State.BodyLength:
          i += this.#take(end - i);
          if (this.#remaining === 0) this.#state = State.Done;
          break;
        case State.BodyUntilClose:
          this.#count(end - i);
          return end;
        case State.ChunkSize:
          i = this.#readChunkSize(buf, i, end);
          break;
        case State.ChunkData:
          i += this.#take(end - i);
          if (this.#remaining === 0) {
            this.#state = State.ChunkDataEnd;
            this.#remaining = 2;
          }
          break;
        case State.ChunkDataEnd: {
          // The CRLF after a chunk's data.
          const expected = this.#remaining === 2 ? CR : LF;
          if (buf[i] !== expected) throw new ResponseError('HPE_INVALID_CHUNK_SIZE', 'chunk data not followed by CRLF');
          i++;
          if (--this.#remaining === 0) this.#state = State.ChunkSize;
          break;
        }
        case State.Trailers:
          i = this.#readTrailers(buf, i, end);
          break;
        case State.Done:
          return i;
      }
      if (this.#state === State.Done) return i;
    }
    return end;
  }

  /** Counts up to `available` bytes of a body part whose length is known (#remaining); returns how many it took. */
  #take(available: number): number {
    const take = Math.min(this.#remaining, available);
    this.#count(take);
    this.#remaining -= take;
    return take;
  }

  #count(bytes: number): void {
    this.bodyBytes += bytes;
    if (this.bodyBytes > this.#limits.maxBodyBytes) {
      throw new ResponseError('UND_ERR_RES_EXCEEDED_MAX_SIZE', `response body over ${this.#limits.maxBodyBytes} bytes`);
    }
  }

  /** Gathers a head up to CRLF CRLF (within maxHeaderBytes) and reads it; returns the offset after it. */
  #readHead(buf: Buffer, start: number, end: number): number {
    const max = this.#limits.maxHeaderBytes;
    if (this.#pending === undefined) {
      // The usual case: the whole head in this read.
      const at = buf.indexOf('\r\n\r\n', start, 'latin1');
      if (at >= 0 && at + 4 <= end && at + 4 - start <= max) {
        this.#onHead(buf.toString('latin1', start, at));
        return at + 4;
      }
      if (at < 0 || at + 4 > end) {
        if (end - start > max) throw overflow(max);
        this.#pending = Buffer.from(buf.subarray(start, end));
        return end;
      }
      throw overflow(max);
    }
    // A head split across reads: look again from just before the seam (the terminator may straddle it).
    const before = this.#pending.length;
    const joined = Buffer.concat([this.#pending, buf.subarray(start, Math.min(end, start + max + 4))]);
    const at = joined.indexOf('\r\n\r\n', Math.max(0, before - 3), 'latin1');
    if (at < 0 || at + 4 > max) {
      if (at < 0 && joined.length <= max) {
        this.#pending = joined;
        return end;
      }
      throw overflow(max);
    }
    this.#pending = undefined;
    this.#onHead(joined.toString('latin1', 0, at));
    return start + (at + 4 - before);
  }

  /** Reads a status line and header section (without the final CRLF CRLF). */
  #onHead(head: string): void {
    const parsed = this.#parsed;
    readResponseHead(head, parsed);
    if (parsed.keepAliveTimeoutS >= 0) this.keepAliveTimeoutS = parsed.keepAliveTimeoutS;
    const { status, minor, contentLength, chunked, transferEncoding, close } = parsed;
    if (status < 200) {
      if (status === 101) throw new ResponseError('UND_ERR_UPGRADE', 'the target switched protocols (101), which this client never asks for');
      // An interim response: the final one follows on the same connection.
      return;
    }
    this.status = status;
    this.keepAlive = !close;
    if (this.#head || status === 204 || status === 304) {
      this.#state = State.Done;
    } else if (transferEncoding) {
      // A body framed by anything but a final chunked coding can only be read to the end of the connection; beside a
      // Content-Length, or in HTTP/1.0, the framing is suspect and the connection is closed after it (§6.1, §6.3 3).
      if (!chunked || contentLength >= 0 || minor === 0) this.keepAlive = false;
      this.#state = chunked ? State.ChunkSize : State.BodyUntilClose;
      if (chunked) this.#line = '';
    } else if (contentLength >= 0) {
      this.#remaining = contentLength;
      if (contentLength > this.#limits.maxBodyBytes) {
        throw new ResponseError('UND_ERR_RES_EXCEEDED_MAX_SIZE', `Content-Length ${contentLength} over ${this.#limits.maxBodyBytes} bytes`);
      }
      this.#state = contentLength === 0 ? State.Done : State.BodyLength;
    } else {
      this.keepAlive = false;
      this.#state = State.BodyUntilClose;
    }
  }

  /** Reads one line (without CRLF) into #line; returns the offset after its LF, or -1 when more is needed. */
  #readLine(buf: Buffer, start: number, end: number): number {
    const lf = buf.indexOf(LF, start);
    const stop = lf < 0 || lf >= end ? end : lf;
    this.#line += buf.toString('latin1', start, stop);
    if (this.#line.length > MAX_LINE + 1) throw new ResponseError('HPE_INVALID_CHUNK_SIZE', 'a chunk-size or trailer line over 4 KiB');
    if (stop === end) return -1;
    if (!this.#line.endsWith('\r')) throw new ResponseError('HPE_LF_EXPECTED', 'a bare LF in chunked framing');
    this.#line = this.#line.slice(0, -1);
    return stop + 1;
  }

  #readChunkSize(buf: Buffer, start: number, end: number): number {
    const after = this.#readLine(buf, start, end);
    if (after < 0) return end;
    const semi = this.#line.indexOf(';');
    const hex = (semi < 0 ? this.#line : this.#line.slice(0, semi)).trim();
    this.#line = '';
    if (!/^[0-9a-fA-F]{1,12}$/.test(hex)) throw new ResponseError('HPE_INVALID_CHUNK_SIZE', `invalid chunk size: ${JSON.stringify(hex.slice(0, 20))}`);
    const size = parseInt(hex, 16);
    if (size === 0) {
      this.#state = State.Trailers;
    } else {
      if (this.bodyBytes + size > this.#limits.maxBodyBytes) this.#count(size);
      this.#remaining = size;
      this.#state = State.ChunkData;
    }
    return after;
  }

  #readTrailers(buf: Buffer, start: number, end: number): number {
    let i = start;
    while (i < end) {
      const after = this.#readLine(buf, i, end);
      if (after < 0) return end;
      const empty = this.#line.length === 0;
      this.#line = '';
      i = after;
      if (empty) {
        this.#state = State.Done;
        return i;
      }
    }
    return i;
  }
}

function overflow(max: number): ResponseError {
  return new ResponseError('UND_ERR_HEADERS_OVERFLOW', `response head over ${max} bytes`);
}
