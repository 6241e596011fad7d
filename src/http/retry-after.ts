/**
 * `Retry-After` (RFC 9110 §10.2.3): delay-seconds or an HTTP-date. Returns seconds from `nowMs`, or undefined
 * when the header is absent or malformed (a malformed value is a finding for the rate-limit checks, not a crash).
 *
 * HTTP-date (RFC 9110 §5.6.7): senders use IMF-fixdate, but recipients MUST accept all three forms:
 *   IMF-fixdate   Sun, 06 Nov 1994 08:49:37 GMT
 *   rfc850-date   Sunday, 06-Nov-94 08:49:37 GMT   (two-digit year: more than 50 years ahead means the past century)
 *   asctime-date  Sun Nov  6 08:49:37 1994          (day padded with a space)
 * Each form is matched exactly; `Date.parse` alone accepts far too much (ISO 8601, local times, "soon"-ish text).
 */
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const DAY_LONG = '(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)';
const MONTH = `(${MONTHS.join('|')})`;
const TIME = '(\\d{2}):(\\d{2}):(\\d{2})';

const IMF_FIXDATE = new RegExp(`^${DAY}, (\\d{2}) ${MONTH} (\\d{4}) ${TIME} GMT$`);
const RFC850_DATE = new RegExp(`^${DAY_LONG}, (\\d{2})-${MONTH}-(\\d{2}) ${TIME} GMT$`);
const ASCTIME_DATE = new RegExp(`^${DAY} ${MONTH} ([ \\d]\\d) ${TIME} (\\d{4})$`);

export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const at = parseHttpDate(trimmed, nowMs);
  return at === undefined ? undefined : Math.max(0, Math.ceil((at - nowMs) / 1000));
}

/** An HTTP-date in any of its three forms, as ms since the epoch; undefined when it is none of them. */
export function parseHttpDate(text: string, nowMs: number = Date.now()): number | undefined {
  let m = IMF_FIXDATE.exec(text);
  if (m) return utc(Number(m[3]), m[2]!, Number(m[1]), m.slice(4, 7));
  m = RFC850_DATE.exec(text);
  if (m) return utc(fullYear(Number(m[3]), nowMs), m[2]!, Number(m[1]), m.slice(4, 7));
  m = ASCTIME_DATE.exec(text);
  if (m) return utc(Number(m[6]), m[1]!, Number(m[2]!.trim()), m.slice(3, 6));
  return undefined;
}

/** RFC 9110 §5.6.7: a two-digit year more than 50 years in the future is the most recent past year with those digits. */
function fullYear(twoDigits: number, nowMs: number): number {
  const current = new Date(nowMs).getUTCFullYear();
  let year = current - (current % 100) + twoDigits;
  if (year > current + 50) year -= 100;
  return year;
}

function utc(year: number, month: string, day: number, time: string[]): number | undefined {
  const [hour, minute, second] = time.map(Number) as [number, number, number];
  const monthIndex = MONTHS.indexOf(month);
  // Leap seconds (60) are allowed by the grammar; Date.UTC rolls them into the next minute.
  if (hour > 23 || minute > 59 || second > 60 || day < 1) return undefined;
  const ms = Date.UTC(year, monthIndex, day, hour, minute, second);
  // Date.UTC rolls 31 Nov over to 1 Dec: a day the month does not have is malformed.
  return new Date(ms).getUTCDate() === day || second === 60 ? ms : undefined;
}
