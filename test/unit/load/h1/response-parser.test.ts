/**
 * The load sender's HTTP/1.1 response reader (src/load/engine/h1/response-parser.ts) fed byte sequences: every
 * response in one piece, split in two at every byte boundary, and one byte at a time. Each piece is read from the
 * middle of a larger buffer whose bytes around it hold CRLF CRLF and LF, as the sender's shared read buffer holds
 * stale bytes past each read's end: the reader must look at `buf[start, end)` only.
 */
import { describe, expect, it } from 'vitest';
import { ResponseError, ResponseParser, type ParserLimits } from '../../../../src/load/engine/h1/response-parser.ts';

const LIMITS: ParserLimits = { maxHeaderBytes: 16 * 1024, maxBodyBytes: 1024 * 1024 };
/** Bytes placed before and after each piece (outside `[start, end)`): a reader that looks past `end` misreads. */
const BEFORE = Buffer.from('HTTP/1.1 999 X\r\n\r\n\n0\r\n\r\n');
const AFTER = Buffer.from('\r\n\r\n\n0\r\n\r\nHTTP/1.1 500 Stale\r\nContent-Length: 0\r\n\r\n');
/** What follows a complete response in the same read: the offset returned must point at it. */
const NEXT = 'HTTP/1.1 502 Next\r\nContent-Length: 0\r\n\r\n';

interface Outcome {
  status: number;
  keepAlive: boolean;
  bodyBytes: number;
  done: boolean;
  readsUntilClose: boolean;
  /** Offset from the start of the whole byte sequence just past the response, when it completed. */
  offset?: number;
  /** The ResponseError's code, when one was thrown. */
  error?: string;
}

/** Feeds `pieces` in order (each from the middle of a padded buffer) until the response completes or fails. */
function feed(parser: ResponseParser, pieces: Buffer[]): Outcome {
  let base = 0;
  let offset: number | undefined;
  let error: string | undefined;
  try {
    for (const piece of pieces) {
      const buf = Buffer.concat([BEFORE, piece, AFTER]);
      const start = BEFORE.length;
      const end = start + piece.length;
      const used = parser.execute(buf, start, end);
      expect(used).toBeGreaterThanOrEqual(start);
      expect(used).toBeLessThanOrEqual(end);
      if (parser.done) {
        offset = base + used - start;
        break;
      }
      // Not complete: the reader took everything it was given.
      expect(used).toBe(end);
      base += piece.length;
    }
  } catch (err) {
    if (!(err instanceof ResponseError)) throw err;
    error = err.code;
  }
  return {
    status: parser.status,
    keepAlive: parser.keepAlive,
    bodyBytes: parser.bodyBytes,
    done: parser.done,
    readsUntilClose: parser.readsUntilClose,
    ...(offset !== undefined ? { offset } : {}),
    ...(error !== undefined ? { error } : {}),
  };
}

function fresh(head = false, limits: ParserLimits = LIMITS): ResponseParser {
  const parser = new ResponseParser(limits);
  parser.reset(head);
  return parser;
}

/** Every way of feeding `bytes`: whole, split in two at each boundary (0 … length), and one byte at a time. */
function splits(bytes: Buffer): Array<{ name: string; pieces: Buffer[] }> {
  const ways = [{ name: 'whole', pieces: [bytes] }];
  for (let k = 0; k <= bytes.length; k++) ways.push({ name: `split at ${k}`, pieces: [bytes.subarray(0, k), bytes.subarray(k)] });
  ways.push({ name: 'byte by byte', pieces: [...bytes].map((b) => Buffer.from([b])) });
  return ways;
}

/** Reads `bytes` every way and expects the same outcome each time. */
function expectEveryWay(bytes: Buffer, expected: Partial<Outcome>, options: { head?: boolean; limits?: ParserLimits } = {}): void {
  for (const { name, pieces } of splits(bytes)) {
    const outcome = feed(fresh(options.head ?? false, options.limits ?? LIMITS), pieces);
    expect({ way: name, ...outcome }).toEqual({ way: name, ...outcome, ...expected });
    // Exactly the expected fields, not a superset: a completed response has an offset, an error has no offset.
    if (expected.offset === undefined) expect(outcome.offset, name).toBeUndefined();
    if (expected.error === undefined) expect(outcome.error, name).toBeUndefined();
  }
}

const bytes = (text: string): Buffer => Buffer.from(text, 'latin1');

describe('ResponseParser: complete responses, at every split', () => {
  it('Content-Length: the body counted, the offset just past it, the connection kept', () => {
    const response = 'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 11\r\nX-Other: a:b\r\n\r\nhello world';
    expectEveryWay(bytes(response + NEXT), { status: 200, keepAlive: true, bodyBytes: 11, done: true, readsUntilClose: false, offset: response.length });
  });

  it('Content-Length: 0 and a body-less head end at the blank line', () => {
    const response = 'HTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n';
    expectEveryWay(bytes(response + NEXT), { status: 201, keepAlive: true, bodyBytes: 0, done: true, offset: response.length });
  });

  it('the same Content-Length twice is one length', () => {
    const response = 'HTTP/1.1 200 OK\r\nContent-Length: 3\r\ncontent-length: 3\r\n\r\nabc';
    expectEveryWay(bytes(response + NEXT), { status: 200, keepAlive: true, bodyBytes: 3, done: true, offset: response.length });
  });

  it('a status line without a reason phrase, and header names in any case', () => {
    const response = 'HTTP/1.1 404\r\nCONTENT-LENGTH: 2\r\n\r\nno';
    expectEveryWay(bytes(response + NEXT), { status: 404, keepAlive: true, bodyBytes: 2, done: true, offset: response.length });
  });

  it('chunked, with chunk extensions and a trailer section: the connection is kept', () => {
    const response =
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n' +
      '5;name=value\r\nhello\r\n' +
      '6 ; a=b;c="d;e"\r\n world\r\n' +
      'A\r\n0123456789\r\n' +
      'b\r\nabcdefghijk\r\n' +
      '0;last=1\r\nX-Trailer: one\r\nX-Checksum: abc\r\n\r\n';
    expectEveryWay(bytes(response + NEXT), { status: 200, keepAlive: true, bodyBytes: 5 + 6 + 10 + 11, done: true, readsUntilClose: false, offset: response.length });
  });

  it('chunked without trailers', () => {
    const response = 'HTTP/1.1 200 OK\r\ntransfer-encoding: gzip, chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n';
    expectEveryWay(bytes(response + NEXT), { status: 200, keepAlive: true, bodyBytes: 3, done: true, offset: response.length });
  });

  it('Transfer-Encoding and Content-Length both: chunked wins and the connection is closed afterwards', () => {
    const response = 'HTTP/1.1 200 OK\r\nContent-Length: 100\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n';
    expectEveryWay(bytes(response + NEXT), { status: 200, keepAlive: false, bodyBytes: 2, done: true, offset: response.length });
  });

  it('100 Continue and 103 Early Hints before the final 200 are skipped', () => {
    const response =
      'HTTP/1.1 100 Continue\r\n\r\n' +
      'HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload; as=style\r\nContent-Length: 99\r\n\r\n' +
      'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok';
    expectEveryWay(bytes(response + NEXT), { status: 200, keepAlive: true, bodyBytes: 2, done: true, offset: response.length });
  });

  it('102 Processing before a chunked 200', () => {
    const response = 'HTTP/1.1 102 Processing\r\n\r\nHTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nx\r\n0\r\n\r\n';
    expectEveryWay(bytes(response + NEXT), { status: 200, keepAlive: true, bodyBytes: 1, done: true, offset: response.length });
  });

  it('204 has no body, whatever its headers say', () => {
    const response = 'HTTP/1.1 204 No Content\r\nX-Request-Id: 7\r\n\r\n';
    expectEveryWay(bytes(response + NEXT), { status: 204, keepAlive: true, bodyBytes: 0, done: true, offset: response.length });
    const withLength = 'HTTP/1.1 204 No Content\r\nContent-Length: 10\r\n\r\n';
    expectEveryWay(bytes(withLength + NEXT), { status: 204, keepAlive: true, bodyBytes: 0, done: true, offset: withLength.length });
  });

  it('304 has no body, though it carries the Content-Length of the representation', () => {
    const response = 'HTTP/1.1 304 Not Modified\r\nETag: "x"\r\nContent-Length: 5000\r\n\r\n';
    expectEveryWay(bytes(response + NEXT), { status: 304, keepAlive: true, bodyBytes: 0, done: true, offset: response.length });
  });

  it('the answer to HEAD has no body: Content-Length: 1000 is not waited for', () => {
    const response = 'HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n';
    expectEveryWay(bytes(response + NEXT), { status: 200, keepAlive: true, bodyBytes: 0, done: true, offset: response.length }, { head: true });
  });

  it('the answer to HEAD with Transfer-Encoding: chunked has no body either, and keeps the connection', () => {
    const response = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n';
    expectEveryWay(bytes(response + NEXT), { status: 200, keepAlive: true, bodyBytes: 0, done: true, offset: response.length }, { head: true });
  });

  it('neither length nor chunked: the body runs to the end of the connection', () => {
    const response = 'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nall of this\r\n\r\nis body, even HTTP/1.1 200 OK\r\n\r\n';
    const body = response.length - response.indexOf('\r\n\r\n') - 4;
    // Never complete by itself: the sender completes it when the connection ends.
    expectEveryWay(bytes(response), { status: 200, keepAlive: false, bodyBytes: body, done: false, readsUntilClose: true });
  });

  it('a Transfer-Encoding whose last coding is not chunked: read to the end of the connection', () => {
    const response = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked, gzip\r\n\r\n0\r\n\r\n';
    expectEveryWay(bytes(response), { status: 200, keepAlive: false, bodyBytes: 5, done: false, readsUntilClose: true });
  });

  it('HTTP/1.0 closes unless it says keep-alive', () => {
    const closes = 'HTTP/1.0 200 OK\r\nContent-Length: 3\r\n\r\nabc';
    expectEveryWay(bytes(closes + NEXT), { status: 200, keepAlive: false, bodyBytes: 3, done: true, offset: closes.length });
    const keeps = 'HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\nContent-Length: 3\r\n\r\nabc';
    expectEveryWay(bytes(keeps + NEXT), { status: 200, keepAlive: true, bodyBytes: 3, done: true, offset: keeps.length });
    // Transfer-Encoding in HTTP/1.0: read as chunked, and the connection closed whatever it says (RFC 9112 §6.1).
    const chunked = 'HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nab\r\n0\r\n\r\n';
    expectEveryWay(bytes(chunked + NEXT), { status: 200, keepAlive: false, bodyBytes: 2, done: true, offset: chunked.length });
    const untilClose = 'HTTP/1.0 200 OK\r\n\r\nabcd';
    expectEveryWay(bytes(untilClose), { status: 200, keepAlive: false, bodyBytes: 4, done: false, readsUntilClose: true });
  });

  it('HTTP/1.1 keeps the connection unless Connection: close', () => {
    const closes = 'HTTP/1.1 200 OK\r\nConnection: Upgrade, Close\r\nContent-Length: 1\r\n\r\nx';
    expectEveryWay(bytes(closes + NEXT), { status: 200, keepAlive: false, bodyBytes: 1, done: true, offset: closes.length });
    const chunkedCloses = 'HTTP/1.1 200 OK\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nx\r\n0\r\n\r\n';
    expectEveryWay(bytes(chunkedCloses + NEXT), { status: 200, keepAlive: false, bodyBytes: 1, done: true, offset: chunkedCloses.length });
  });

  it('a head exactly at maxHeaderBytes is read; one byte more overflows (at every split)', () => {
    const head = (size: number): string => {
      const base = 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\nX-Pad: \r\n\r\n';
      return base.replace('X-Pad: ', `X-Pad: ${'p'.repeat(size - base.length)}`);
    };
    const limits = { maxHeaderBytes: 128, maxBodyBytes: 1024 };
    expect(head(128)).toHaveLength(128);
    expectEveryWay(bytes(head(128) + 'ok' + NEXT), { status: 200, keepAlive: true, bodyBytes: 2, done: true, offset: 130 }, { limits });
    expectEveryWay(bytes(head(129) + 'ok'), { status: 0, bodyBytes: 0, done: false, error: 'UND_ERR_HEADERS_OVERFLOW' }, { limits });
  });

  it('maxHeaderBytes applies to each head: interim heads do not add up', () => {
    const limits = { maxHeaderBytes: 64, maxBodyBytes: 1024 };
    const response = 'HTTP/1.1 100 Continue\r\nX-A: aaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 1\r\nX-B: bbbbbbbb\r\n\r\nz';
    expectEveryWay(bytes(response + NEXT), { status: 200, bodyBytes: 1, done: true, offset: response.length }, { limits });
  });

  it('a body exactly at maxBodyBytes is read, by Content-Length, in chunks and to the end of the connection', () => {
    const limits = { maxHeaderBytes: 1024, maxBodyBytes: 10 };
    const byLength = 'HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n0123456789';
    expectEveryWay(bytes(byLength + NEXT), { status: 200, bodyBytes: 10, done: true, offset: byLength.length }, { limits });
    const byChunks = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\n0123\r\n6\r\n456789\r\n0\r\n\r\n';
    expectEveryWay(bytes(byChunks + NEXT), { status: 200, bodyBytes: 10, done: true, offset: byChunks.length }, { limits });
    const untilClose = 'HTTP/1.1 200 OK\r\n\r\n0123456789';
    expectEveryWay(bytes(untilClose), { status: 200, bodyBytes: 10, done: false, readsUntilClose: true }, { limits });
  });
});

describe('ResponseParser: errors, at every split', () => {
  const failsWith = (text: string, error: string, options: { head?: boolean; limits?: ParserLimits } = {}): void => {
    for (const { name, pieces } of splits(bytes(text))) {
      const outcome = feed(fresh(options.head ?? false, options.limits ?? LIMITS), pieces);
      expect({ way: name, error: outcome.error, done: outcome.done }).toEqual({ way: name, error, done: false });
    }
  };

  it('a status line that is not HTTP/1.x', () => {
    failsWith('HTTP/2 200 OK\r\nContent-Length: 0\r\n\r\n', 'HPE_INVALID_CONSTANT');
    failsWith('HTTP/1.1\r\n\r\n', 'HPE_INVALID_CONSTANT');
    failsWith('HTTP/1.1  200 OK\r\n\r\n', 'HPE_INVALID_STATUS');
    failsWith('ICY 200 OK\r\n\r\n', 'HPE_INVALID_CONSTANT');
    failsWith('garbage\r\n\r\n', 'HPE_INVALID_CONSTANT');
  });

  it('a status code that is not three digits, or out of range', () => {
    for (const line of ['HTTP/1.1 20 OK', 'HTTP/1.1 2x0 OK', 'HTTP/1.1 099 Low', 'HTTP/1.1 2000 OK', 'HTTP/1.1 200OK', 'HTTP/1.x 200 OK', 'HTTP/1.1 2e2 OK', 'HTTP/1.1 1e2 OK', 'HTTP/1.1 +20 OK', 'HTTP/1.1 -20 OK']) {
      failsWith(`${line}\r\nContent-Length: 0\r\n\r\n`, 'HPE_INVALID_STATUS');
    }
  });

  it('a Content-Length that is not a decimal number', () => {
    for (const value of ['abc', '-1', '1.5', '', '0x10', '1e3', '5, 5', '1234567890123456']) {
      failsWith(`HTTP/1.1 200 OK\r\nContent-Length: ${value}\r\n\r\n`, 'HPE_INVALID_CONTENT_LENGTH');
    }
  });

  it('two different Content-Length values', () => {
    failsWith('HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd', 'HPE_UNEXPECTED_CONTENT_LENGTH');
  });

  it('a header line without a colon', () => {
    failsWith('HTTP/1.1 200 OK\r\nContent-Length 3\r\n\r\nabc', 'HPE_INVALID_HEADER_TOKEN');
  });

  it('whitespace between a field name and its colon, or an empty name (RFC 9112 §5.1)', () => {
    failsWith('HTTP/1.1 200 OK\r\nContent-Length : 3\r\n\r\nabc', 'HPE_INVALID_HEADER_TOKEN');
    failsWith('HTTP/1.1 200 OK\r\nX-Other\t: 1\r\nContent-Length: 3\r\n\r\nabc', 'HPE_INVALID_HEADER_TOKEN');
    failsWith('HTTP/1.1 200 OK\r\n: 1\r\nContent-Length: 3\r\n\r\nabc', 'HPE_INVALID_HEADER_TOKEN');
  });

  it("reads the target's Keep-Alive timeout, and forgets it on reset", () => {
    const parser = new ResponseParser(LIMITS);
    parser.reset(false);
    const head = Buffer.from('HTTP/1.1 200 OK\r\nKeep-Alive: max=100, timeout=7\r\nContent-Length: 0\r\n\r\n');
    expect(parser.execute(head, 0, head.length)).toBe(head.length);
    expect(parser.keepAliveTimeoutS).toBe(7);
    parser.reset(false);
    expect(parser.keepAliveTimeoutS).toBe(-1);
  });

  it('a chunk size that is not hex, data not followed by CRLF, a bare LF, a chunk-size line over 4 KiB', () => {
    const head = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n';
    failsWith(`${head}zz\r\nab\r\n0\r\n\r\n`, 'HPE_INVALID_CHUNK_SIZE');
    failsWith(`${head}\r\n`, 'HPE_INVALID_CHUNK_SIZE');
    failsWith(`${head}-1\r\n`, 'HPE_INVALID_CHUNK_SIZE');
    failsWith(`${head}3\r\nabcX\r\n0\r\n\r\n`, 'HPE_INVALID_CHUNK_SIZE');
    failsWith(`${head}3\r\nabc\rX0\r\n\r\n`, 'HPE_INVALID_CHUNK_SIZE');
    failsWith(`${head}3\nabc\r\n0\r\n\r\n`, 'HPE_LF_EXPECTED');
    failsWith(`${head}3\r\nabc\r\n0\r\nX-T: 1\n\r\n`, 'HPE_LF_EXPECTED');
    failsWith(`${head}1;${'x'.repeat(5000)}\r\nz\r\n0\r\n\r\n`, 'HPE_INVALID_CHUNK_SIZE');
  });

  it('101 Switching Protocols is an error: this client never asks to upgrade', () => {
    failsWith('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n', 'UND_ERR_UPGRADE');
  });

  it('a head over maxHeaderBytes, with and without its end in sight', () => {
    const limits = { maxHeaderBytes: 256, maxBodyBytes: 1024 };
    failsWith(`HTTP/1.1 200 OK\r\nX-Big: ${'h'.repeat(400)}\r\nContent-Length: 0\r\n\r\n`, 'UND_ERR_HEADERS_OVERFLOW', { limits });
    failsWith(`HTTP/1.1 200 OK\r\nX-Big: ${'h'.repeat(400)}`, 'UND_ERR_HEADERS_OVERFLOW', { limits });
  });

  it('a body over maxBodyBytes: by Content-Length (at the head), in chunks and to the end of the connection', () => {
    const limits = { maxHeaderBytes: 1024, maxBodyBytes: 10 };
    failsWith('HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\n', 'UND_ERR_RES_EXCEEDED_MAX_SIZE', { limits });
    failsWith('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\n0123\r\n4\r\n4567\r\n3\r\n89A\r\n0\r\n\r\n', 'UND_ERR_RES_EXCEEDED_MAX_SIZE', { limits });
    // One chunk announced over the cap fails at its size line, before its data.
    failsWith('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nffffff\r\n', 'UND_ERR_RES_EXCEEDED_MAX_SIZE', { limits });
    failsWith('HTTP/1.1 200 OK\r\n\r\n0123456789A', 'UND_ERR_RES_EXCEEDED_MAX_SIZE', { limits });
  });

  it('the status is known when a body over the cap fails', () => {
    const outcome = feed(fresh(false, { maxHeaderBytes: 1024, maxBodyBytes: 10 }), [bytes('HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\n')]);
    expect(outcome).toMatchObject({ status: 200, error: 'UND_ERR_RES_EXCEEDED_MAX_SIZE' });
  });
});

describe('ResponseParser: state across responses', () => {
  it('reset() forgets a half-read head and body', () => {
    const parser = fresh();
    feed(parser, [bytes('HTTP/1.1 500 Half\r\nContent-Le')]);
    parser.reset(false);
    const ok = 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok';
    expect(feed(parser, [bytes(ok + NEXT)])).toMatchObject({ status: 200, bodyBytes: 2, done: true, offset: ok.length });
    parser.reset(false);
    feed(parser, [bytes('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nabc')]);
    expect(parser.bodyBytes).toBe(3);
    parser.reset(true);
    expect([parser.status, parser.bodyBytes, parser.keepAlive, parser.done, parser.inHead]).toEqual([0, 0, true, false, true]);
    expect(feed(parser, [bytes('HTTP/1.1 204 No Content\r\n\r\n')])).toMatchObject({ status: 204, bodyBytes: 0, done: true, offset: 27 });
  });

  it('inHead holds until the final head has been read, through interim responses', () => {
    const parser = fresh();
    parser.execute(bytes('HTTP/1.1 100 Continue\r\n\r\n'), 0, 25);
    expect(parser.inHead).toBe(true);
    parser.execute(bytes('HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nab'), 0, 40);
    expect([parser.inHead, parser.done, parser.status, parser.bodyBytes]).toEqual([false, false, 200, 2]);
  });

  it('a parser reads many responses in a row (keep-alive), one reset each', () => {
    const parser = new ResponseParser(LIMITS);
    const responses = ['HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\na', 'HTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nbc\r\n0\r\n\r\n', 'HTTP/1.1 204 No Content\r\n\r\n'];
    for (let round = 0; round < 3; round++) {
      for (const response of responses) {
        parser.reset(false);
        expect(feed(parser, [bytes(response)])).toMatchObject({ done: true, keepAlive: true, offset: response.length });
      }
    }
  });
});
