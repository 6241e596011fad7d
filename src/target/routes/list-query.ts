/**
 * Query parameters of GET /v1/whatsapp/messages: limit (1–100, default 20), cursor (opaque, signed), from
 * (exact sender), since (inclusive) and until (exclusive). Every problem is collected, then answered as one 400.
 */
import type { CursorCodec } from '../http/cursor.ts';
import { ProblemError, validationFailed, type FieldError } from '../http/problem.ts';
import type { PageQuery } from '../store/inbound-messages.ts';

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

const PHONE = /^[1-9][0-9]{6,14}$/;
// RFC 3339 date-time (the profile's "ISO 8601"), with Z or a numeric offset.
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;

/** RFC 3339 shape plus real calendar values: Date.parse alone accepts 2025-02-30 and rolls it into March. */
function isCalendarValid(value: string): boolean {
  if (!DATE_TIME.test(value)) return false;
  const [year, month, day, hour, minute, second] = value.slice(0, 19).split(/[-T:tT]/).map(Number) as number[];
  const daysInMonth = new Date(Date.UTC(year!, month!, 0)).getUTCDate();
  return month! >= 1 && month! <= 12 && day! >= 1 && day! <= daysInMonth && hour! <= 23 && minute! <= 59 && second! <= 59;
}

export type RawQuery = Record<string, string | string[] | undefined>;

/** `accountId`: the caller's account; a cursor issued to another account is refused like a forged one. */
export function parseListQuery(query: RawQuery, cursors: CursorCodec, accountId: string): PageQuery {
  const errors: FieldError[] = [];
  const single = (name: string): string | undefined => {
    const value = query[name];
    if (Array.isArray(value)) {
      errors.push({ path: `/query/${name}`, message: 'must be given at most once' });
      return undefined;
    }
    return value;
  };

  const result: PageQuery = { limit: DEFAULT_LIMIT };
  const limit = single('limit');
  if (limit !== undefined) {
    const n = /^[0-9]{1,4}$/.test(limit) ? Number(limit) : NaN;
    if (n >= 1 && n <= MAX_LIMIT) result.limit = n;
    else errors.push({ path: '/query/limit', message: `must be an integer from 1 to ${MAX_LIMIT}` });
  }
  const from = single('from');
  if (from !== undefined) {
    if (PHONE.test(from)) result.from = from;
    else errors.push({ path: '/query/from', message: 'must be a phone number: digits only, with country code' });
  }
  for (const name of ['since', 'until'] as const) {
    const value = single(name);
    if (value === undefined) continue;
    const ms = isCalendarValid(value) ? Date.parse(value) : NaN;
    if (Number.isFinite(ms)) result[name] = ms;
    else errors.push({ path: `/query/${name}`, message: 'must be an ISO 8601 date-time, e.g. 2025-01-31T12:00:00Z' });
  }
  const cursor = single('cursor');
  if (errors.length > 0) throw validationFailed(errors, 'The query parameters are not valid.');

  if (cursor !== undefined) {
    const after = cursors.decode(cursor, accountId);
    if (!after) {
      throw new ProblemError(400, 'invalid_cursor', {
        detail: 'The cursor was not issued by this service to this account; use pagination.next of a previous page.',
        errors: [{ path: '/query/cursor', message: 'is not a cursor issued by this service' }],
      });
    }
    result.after = after;
  }
  return result;
}
