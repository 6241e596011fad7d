/** The load sender's request bytes (src/load/engine/h1/request-bytes.ts): exact output, and what it refuses. */
import { describe, expect, it } from 'vitest';
import { encodeRequest, InvalidRequestError, requestEncoder } from '../../../../src/load/engine/h1/request-bytes.ts';
import type { PreparedRequest } from '../../../../src/load/request-mix.ts';
import { compileTemplate, newTemplateState } from '../../../../src/load/template.ts';

describe('encodeRequest: the bytes', () => {
  it('GET: request line, host first, the headers in order, a blank line and no length', () => {
    expect(encodeRequest('GET', '/v1/items?limit=10&x=%20', 'api.example.com:8443', { accept: 'application/json', 'X-Trace': 'a b\tc' }, undefined)).toBe(
      'GET /v1/items?limit=10&x=%20 HTTP/1.1\r\nhost: api.example.com:8443\r\naccept: application/json\r\nX-Trace: a b\tc\r\n\r\n',
    );
  });

  it('no headers at all', () => {
    expect(encodeRequest('DELETE', '/a/1', 'h', {}, undefined)).toBe('DELETE /a/1 HTTP/1.1\r\nhost: h\r\n\r\n');
  });

  it('a body: content-length in bytes after the headers, then the body', () => {
    const body = JSON.stringify({ to: '+15550001', text: 'hi' });
    expect(encodeRequest('POST', '/messages', '127.0.0.1:3000', { 'content-type': 'application/json' }, body)).toBe(
      `POST /messages HTTP/1.1\r\nhost: 127.0.0.1:3000\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`,
    );
  });

  it('a Unicode body: content-length counts UTF-8 bytes, not characters', () => {
    const body = '{"text":"héllo wörld € 😀"}';
    const text = encodeRequest('PUT', '/t', 'h', {}, body);
    expect(Buffer.byteLength(body)).toBe(body.length + 1 + 1 + 2 + 2);
    expect(text).toBe(`PUT /t HTTP/1.1\r\nhost: h\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    // On the wire (UTF-8) the body is exactly content-length bytes after the blank line.
    const wire = Buffer.from(text);
    const at = wire.indexOf('\r\n\r\n') + 4;
    expect(wire.length - at).toBe(Buffer.byteLength(body));
    expect(wire.subarray(at).toString('utf8')).toBe(body);
  });

  it('POST, PUT and PATCH without a body say content-length: 0; other methods say nothing', () => {
    for (const method of ['POST', 'PUT', 'PATCH']) {
      expect(encodeRequest(method, '/', 'h', {}, undefined)).toBe(`${method} / HTTP/1.1\r\nhost: h\r\ncontent-length: 0\r\n\r\n`);
    }
    for (const method of ['GET', 'HEAD', 'DELETE', 'OPTIONS', 'post']) {
      expect(encodeRequest(method, '/', 'h', {}, undefined)).toBe(`${method} / HTTP/1.1\r\nhost: h\r\n\r\n`);
    }
  });

  it('an empty body is content-length: 0, on any method', () => {
    expect(encodeRequest('GET', '/', 'h', {}, '')).toBe('GET / HTTP/1.1\r\nhost: h\r\ncontent-length: 0\r\n\r\n');
    expect(encodeRequest('DELETE', '/', 'h', {}, '{}')).toBe('DELETE / HTTP/1.1\r\nhost: h\r\ncontent-length: 2\r\n\r\n{}');
  });

  it("the caller's Host (any case) replaces the origin's, in the caller's position", () => {
    expect(encodeRequest('GET', '/', 'origin:1', { accept: '*/*', HOST: 'virtual.example' }, undefined)).toBe('GET / HTTP/1.1\r\naccept: */*\r\nHOST: virtual.example\r\n\r\n');
  });

  it("the caller's Content-Length, Transfer-Encoding and Connection are dropped: the sender frames and keeps the connection", () => {
    const headers = { 'Content-Length': '999', 'transfer-encoding': 'chunked', CONNECTION: 'close', 'x-keep': '1' };
    expect(encodeRequest('POST', '/p', 'h', headers, 'abc')).toBe('POST /p HTTP/1.1\r\nhost: h\r\nx-keep: 1\r\ncontent-length: 3\r\n\r\nabc');
    expect(encodeRequest('GET', '/g', 'h', headers, undefined)).toBe('GET /g HTTP/1.1\r\nhost: h\r\nx-keep: 1\r\n\r\n');
  });

  it('an absolute-form and an asterisk-form target pass as given', () => {
    expect(encodeRequest('OPTIONS', '*', 'h', {}, undefined)).toBe('OPTIONS * HTTP/1.1\r\nhost: h\r\n\r\n');
    expect(encodeRequest('GET', 'http://h/x', 'h', {}, undefined)).toBe('GET http://h/x HTTP/1.1\r\nhost: h\r\n\r\n');
  });

  it('an empty header value is written as such', () => {
    expect(encodeRequest('GET', '/', 'h', { 'x-empty': '' }, undefined)).toBe('GET / HTTP/1.1\r\nhost: h\r\nx-empty: \r\n\r\n');
  });
});

describe('encodeRequest: what would split or garble the request is refused', () => {
  const refused = (f: () => unknown): void => {
    let thrown: unknown;
    try {
      f();
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(InvalidRequestError);
    expect(thrown).toBeInstanceOf(Error);
    expect((thrown as InvalidRequestError).code).toBe('UND_ERR_INVALID_ARG');
  };

  it('a method that is not a token', () => {
    for (const method of ['', 'GET ', 'G ET', 'GET\r\n', 'GE\nT', 'GET\0', 'GET/', 'GÉT', '(GET)']) refused(() => encodeRequest(method, '/', 'h', {}, undefined));
  });

  it('a request target with CR, LF, NUL or a space, or empty', () => {
    for (const path of ['', '/a b', '/a\r\nX-Injected: 1', '/a\n', '/a\r', '/a\0b', ' /']) refused(() => encodeRequest('GET', path, 'h', {}, undefined));
  });

  it('a header name that is not a token', () => {
    for (const name of ['', 'x y', 'x:y', 'x\r\ny', 'x\n', 'x\0', 'ünicode', 'x(y)', 'x\t']) refused(() => encodeRequest('GET', '/', 'h', { [name]: 'v' }, undefined));
  });

  it('a header value with CR, LF or NUL, even on a header the sender would drop', () => {
    for (const value of ['a\r\nX-Injected: 1', 'a\rb', 'a\nb', 'a\0b', '\r\n']) {
      refused(() => encodeRequest('GET', '/', 'h', { 'x-v': value }, undefined));
      refused(() => encodeRequest('GET', '/', 'h', { 'content-length': value }, undefined));
    }
  });

  it('the error names the offending part', () => {
    expect(() => encodeRequest('GET', '/', 'h', { 'x-bad': 'a\nb' }, undefined)).toThrow(/x-bad/);
    expect(() => encodeRequest('GE T', '/', 'h', {}, undefined)).toThrow(/method/);
    expect(() => encodeRequest('GET', '/a b', 'h', {}, undefined)).toThrow(/target/);
  });
});

describe('requestEncoder', () => {
  const state = newTemplateState(() => 0.5);
  const template = (text: string) => {
    const { template: t, problems } = compileTemplate(text);
    expect(problems).toEqual([]);
    return t;
  };
  const request = (path: string, body?: string): PreparedRequest => ({
    nameIndex: 0,
    name: 'r',
    method: 'POST',
    path: template(path),
    headers: { 'content-type': 'application/json' },
    ...(body !== undefined ? { body: template(body) } : {}),
    expected: () => true,
  });

  it('a constant request is encoded once, as one Buffer reused on every send', () => {
    const encode = requestEncoder('/base', 'h:1', state);
    const r = request('/items', '{"a":"é"}');
    const first = encode(r);
    expect(Buffer.isBuffer(first)).toBe(true);
    expect(encode(r)).toBe(first);
    expect(first.toString()).toBe(encodeRequest('POST', '/base/items', 'h:1', r.headers, '{"a":"é"}'));
    // Another PreparedRequest with the same text has bytes of its own.
    expect(encode(request('/items', '{"a":"é"}'))).not.toBe(first);
  });

  it('a templated path or body is encoded on every send', () => {
    const encode = requestEncoder('', 'h', state);
    const r = request('/items/{{seq}}', '{"n":{{seq}}}');
    const a = encode(r);
    const b = encode(r);
    expect(typeof a).toBe('string');
    expect(a).not.toBe(b);
    expect(a).toMatch(/^POST \/items\/\d+ HTTP\/1\.1\r\n/);
    const constantPath = request('/items', '{"n":{{seq}}}');
    expect(typeof encode(constantPath)).toBe('string');
  });
});
