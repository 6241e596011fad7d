/**
 * The part of RFC 9651 (Structured Field Values for HTTP) the rate-limit headers need: parsing a List of Items
 * (and Inner Lists) with Parameters. Bare items: Integer, Decimal, String, Token, Byte Sequence, Boolean, Date and
 * Display String. A malformed value throws `StructuredFieldError` with the offset, so callers can turn it into a
 * finding instead of crashing.
 */

export type BareItem =
  | { kind: 'integer' | 'decimal' | 'date'; value: number }
  | { kind: 'string' | 'token' | 'display'; value: string }
  | { kind: 'bytes'; value: Uint8Array }
  | { kind: 'boolean'; value: boolean };

export interface SfItem {
  /** A bare item, or for an Inner List its members. */
  item: BareItem | { kind: 'inner'; value: SfItem[] };
  params: Map<string, BareItem>;
}

export class StructuredFieldError extends Error {
  constructor(message: string, readonly offset: number) {
    super(`${message} at offset ${offset}`);
    this.name = 'StructuredFieldError';
  }
}

/** Parses an RFC 9651 List (§4.2.1). An empty or all-blank field is an empty list. */
export function parseList(field: string): SfItem[] {
  const p = new Parser(field);
  p.skip(' \t');
  const members: SfItem[] = [];
  while (!p.done()) {
    members.push(p.peek() === '(' ? p.innerList() : p.item());
    p.skip(' \t');
    if (p.done()) break;
    p.expect(',');
    p.skip(' \t');
    if (p.done()) p.error('trailing comma');
  }
  return members;
}

class Parser {
  #pos = 0;
  constructor(readonly text: string) {}

  done(): boolean {
    return this.#pos >= this.text.length;
  }
  peek(): string {
    return this.text[this.#pos] ?? '';
  }
  error(message: string): never {
    throw new StructuredFieldError(message, this.#pos);
  }
  expect(char: string): void {
    if (this.peek() !== char) this.error(`expected "${char}"`);
    this.#pos++;
  }
  skip(chars: string): void {
    while (!this.done() && chars.includes(this.peek())) this.#pos++;
  }

  innerList(): SfItem {
    this.expect('(');
    const members: SfItem[] = [];
    for (;;) {
      this.skip(' ');
      if (this.peek() === ')') break;
      if (this.done()) this.error('unterminated inner list');
      members.push(this.item());
      if (this.peek() !== ' ' && this.peek() !== ')') this.error('expected a space or ")"');
    }
    this.#pos++;
    return { item: { kind: 'inner', value: members }, params: this.params() };
  }

  item(): SfItem {
    return { item: this.bareItem(), params: this.params() };
  }

  params(): Map<string, BareItem> {
    const params = new Map<string, BareItem>();
    while (this.peek() === ';') {
      this.#pos++;
      this.skip(' ');
      const key = this.key();
      let value: BareItem = { kind: 'boolean', value: true };
      if (this.peek() === '=') {
        this.#pos++;
        value = this.bareItem();
      }
      params.set(key, value);
    }
    return params;
  }

  key(): string {
    const match = /^[a-z*][a-z0-9_\-.*]*/.exec(this.text.slice(this.#pos));
    if (!match) this.error('expected a parameter key');
    this.#pos += match[0].length;
    return match[0];
  }

  bareItem(): BareItem {
    const c = this.peek();
    if (c === '-' || /[0-9]/.test(c)) return this.number();
    if (c === '"') return { kind: 'string', value: this.string() };
    if (c === ':') return this.bytes();
    if (c === '?') return this.boolean();
    if (c === '@') {
      this.#pos++;
      const n = this.number();
      if (n.kind !== 'integer') this.error('a date must be an integer');
      return { kind: 'date', value: n.value };
    }
    if (c === '%') {
      this.#pos++;
      return { kind: 'display', value: this.string() };
    }
    if (/[A-Za-z*]/.test(c)) {
      const match = /^[A-Za-z*][!#$%&'*+\-.^_`|~0-9A-Za-z:/]*/.exec(this.text.slice(this.#pos))!;
      this.#pos += match[0].length;
      return { kind: 'token', value: match[0] };
    }
    return this.error('expected an item');
  }

  number(): BareItem {
    const match = /^-?[0-9]{1,15}(\.[0-9]{1,3})?/.exec(this.text.slice(this.#pos));
    if (!match) this.error('expected a number');
    const [text, fraction] = match;
    if (fraction !== undefined && text.replace(/^-/, '').indexOf('.') > 12) this.error('decimal has too many integer digits');
    this.#pos += text.length;
    if (/[0-9.]/.test(this.peek())) this.error('number too long');
    return { kind: fraction === undefined ? 'integer' : 'decimal', value: Number(text) };
  }

  string(): string {
    this.expect('"');
    let out = '';
    for (;;) {
      if (this.done()) this.error('unterminated string');
      const c = this.text[this.#pos++]!;
      if (c === '"') return out;
      if (c === '\\') {
        const next = this.text[this.#pos++];
        if (next !== '"' && next !== '\\') this.error('bad escape in string');
        out += next;
      } else if (c < ' ' || c > '~') {
        this.error('non-printable character in string');
      } else {
        out += c;
      }
    }
  }

  bytes(): BareItem {
    this.expect(':');
    const end = this.text.indexOf(':', this.#pos);
    if (end < 0) this.error('unterminated byte sequence');
    const b64 = this.text.slice(this.#pos, end);
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(b64)) this.error('bad base64 in byte sequence');
    this.#pos = end + 1;
    return { kind: 'bytes', value: new Uint8Array(Buffer.from(b64, 'base64')) };
  }

  boolean(): BareItem {
    this.expect('?');
    const c = this.peek();
    if (c !== '0' && c !== '1') this.error('expected ?0 or ?1');
    this.#pos++;
    return { kind: 'boolean', value: c === '1' };
  }
}
