/**
 * A response head's status line and the header fields that frame the response (RFC 9112 §4, §5.1, §6): read into
 * one object the parser owns and reuses, so reading a head allocates nothing beyond the header strings it compares.
 */

/** A response the target framed wrongly, or one over a cap: the connection cannot be trusted afterwards. */
export class ResponseError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** What a head says: its HTTP minor version, status, and the framing fields (-1: absent). */
export interface ResponseHead {
  minor: number;
  status: number;
  contentLength: number;
  chunked: boolean;
  transferEncoding: boolean;
  /** The connection ends after this response (Connection: close, or HTTP/1.0 without keep-alive). */
  close: boolean;
  /** `Keep-Alive: timeout=` in seconds, when stated. */
  keepAliveTimeoutS: number;
}

export function newResponseHead(): ResponseHead {
  return { minor: 0, status: 0, contentLength: -1, chunked: false, transferEncoding: false, close: false, keepAliveTimeoutS: -1 };
}

/** Reads a status line and header section (without the final CRLF CRLF) into `into`. Throws ResponseError. */
export function readResponseHead(head: string, into: ResponseHead): void {
  const lineEnd = head.indexOf('\r\n');
  const statusLine = lineEnd < 0 ? head : head.slice(0, lineEnd);
  // HTTP/1.x SP 3DIGIT [SP reason]
  if (statusLine.length < 12 || !statusLine.startsWith('HTTP/1.') || statusLine.charCodeAt(8) !== 32) {
    throw new ResponseError('HPE_INVALID_CONSTANT', `not an HTTP/1.x status line: ${JSON.stringify(statusLine.slice(0, 40))}`);
  }
  into.minor = statusLine.charCodeAt(7) - 48;
  into.status = Number(statusLine.slice(9, 12));
  if (into.minor < 0 || into.minor > 9 || !/^\d{3}$/.test(statusLine.slice(9, 12)) || into.status < 100 || into.status > 999 || (statusLine.length > 12 && statusLine.charCodeAt(12) !== 32)) {
    throw new ResponseError('HPE_INVALID_STATUS', `invalid status line: ${JSON.stringify(statusLine.slice(0, 40))}`);
  }
  into.contentLength = -1;
  into.chunked = false;
  into.transferEncoding = false;
  into.close = into.minor === 0;
  into.keepAliveTimeoutS = -1;
  if (lineEnd >= 0) {
    let at = lineEnd + 2;
    while (at < head.length) {
      let next = head.indexOf('\r\n', at);
      if (next < 0) next = head.length;
      const colon = head.indexOf(':', at);
      if (colon < 0 || colon > next) throw new ResponseError('HPE_INVALID_HEADER_TOKEN', 'a header line without a colon');
      const nameLength = colon - at;
      const last = head.charCodeAt(colon - 1);
      // RFC 9112 §5.1: no whitespace between a field name and its colon (a response-splitting shape).
      if (nameLength === 0 || last === 32 || last === 9) throw new ResponseError('HPE_INVALID_HEADER_TOKEN', `an empty field name or whitespace before the colon: ${JSON.stringify(head.slice(at, colon + 1).slice(0, 40))}`);
      // Only three headers frame a response; compare by length first, so other headers cost one branch.
      if (nameLength === 14 || nameLength === 17 || nameLength === 10) {
        const name = head.slice(at, colon).toLowerCase();
        const value = head.slice(colon + 1, next).trim();
        if (name === 'content-length') {
          if (!/^\d{1,15}$/.test(value)) throw new ResponseError('HPE_INVALID_CONTENT_LENGTH', `invalid Content-Length: ${JSON.stringify(value.slice(0, 40))}`);
          const length = Number(value);
          if (into.contentLength >= 0 && into.contentLength !== length) throw new ResponseError('HPE_UNEXPECTED_CONTENT_LENGTH', 'two different Content-Length values');
          into.contentLength = length;
        } else if (name === 'transfer-encoding') {
          into.transferEncoding = true;
          const codings = value.toLowerCase().split(',');
          into.chunked = codings[codings.length - 1]!.trim() === 'chunked';
        } else if (name === 'connection') {
          const tokens = value.toLowerCase().split(',').map((t) => t.trim());
          if (tokens.includes('close')) into.close = true;
          else if (tokens.includes('keep-alive')) into.close = false;
        } else if (name === 'keep-alive') {
          // Keep-Alive: timeout=N — how long the target keeps an idle connection (RFC 2068 §19.7.1, still sent by many).
          const timeout = /(?:^|[,;\s])timeout\s*=\s*(\d{1,9})/i.exec(value);
          if (timeout) into.keepAliveTimeoutS = Number(timeout[1]);
        }
      }
      at = next + 2;
    }
  }
}
