/**
 * RFC 9651 (Structured Field Values for HTTP) Lists and Dictionaries, as the rate-limit headers need them, parsed by the
 * `structured-headers` package and mapped onto a small tagged model (`kind`) that the header readers match on.
 * Bare items: Integer, Decimal, String, Token, Byte Sequence, Boolean, Date and Display String. A malformed value
 * throws `StructuredFieldError` (with the library's offset in the message), so callers turn it into a finding
 * instead of crashing.
 *
 * One loss against a hand parser: the library returns Integers and Decimals both as JavaScript numbers, so a
 * Decimal with a zero fraction (`1.0`) reads as the Integer 1; every other Decimal is told apart by its fraction.
 * And structured-headers 2.1.0 reads a Date (`@…`) to the end of the field, so a Date followed by another member
 * is rejected; the rate-limit fields carry no Dates.
 */
import { DisplayString, parseDictionary as parseSfDictionary, parseList as parseSfList, Token, type BareItem as LibBareItem, type InnerList, type Item, type Parameters } from 'structured-headers';

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
  constructor(message: string) {
    super(message);
    this.name = 'StructuredFieldError';
  }
}

/** Parses an RFC 9651 List (§4.2.1). An empty or all-blank field is an empty list. */
export function parseList(field: string): SfItem[] {
  let list: (Item | InnerList)[];
  try {
    list = parseSfList(field);
  } catch (err) {
    throw new StructuredFieldError((err as Error).message.replace(/^Parse error: /, ''));
  }
  return list.map(member);
}

/** Parses an RFC 9651 Dictionary (§4.2.2): the `RateLimit` field of draft -07 (`limit=10, remaining=5, reset=3`). */
export function parseDictionary(field: string): Map<string, SfItem> {
  let dict: Map<string, Item | InnerList>;
  try {
    dict = parseSfDictionary(field);
  } catch (err) {
    throw new StructuredFieldError((err as Error).message.replace(/^Parse error: /, ''));
  }
  return new Map([...dict].map(([key, value]) => [key, member(value)]));
}

function member(entry: Item | InnerList): SfItem {
  const [value, params] = entry;
  if (Array.isArray(value)) return { item: { kind: 'inner', value: value.map(member) }, params: parameters(params) };
  return { item: bareItem(value), params: parameters(params) };
}

function parameters(params: Parameters): Map<string, BareItem> {
  return new Map([...params].map(([key, value]) => [key, bareItem(value)]));
}

function bareItem(value: LibBareItem): BareItem {
  if (typeof value === 'number') return { kind: Number.isInteger(value) ? 'integer' : 'decimal', value };
  if (typeof value === 'string') return { kind: 'string', value };
  if (typeof value === 'boolean') return { kind: 'boolean', value };
  if (value instanceof Token) return { kind: 'token', value: value.toString() };
  if (value instanceof DisplayString) return { kind: 'display', value: value.toString() };
  // RFC 9651 §3.3.7: a Date is an Integer of seconds since the epoch.
  if (value instanceof Date) return { kind: 'date', value: value.getTime() / 1000 };
  if (value instanceof ArrayBuffer) return { kind: 'bytes', value: new Uint8Array(value) };
  if (ArrayBuffer.isView(value)) return { kind: 'bytes', value: new Uint8Array(value.buffer, value.byteOffset, value.byteLength) };
  throw new StructuredFieldError(`unsupported structured field item ${String(value)}`);
}
