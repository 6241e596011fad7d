import { describe, expect, it } from 'vitest';
import { parseHttpDate, parseRetryAfter } from '../../../src/http/retry-after.ts';

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-11-21T10:00:00Z');
  it.each([
    ['3', 3],
    [' 0 ', 0],
    ['Sat, 21 Nov 2026 10:00:05 GMT', 5],
    ['Sat, 21 Nov 2026 09:59:00 GMT', 0],
  ])('reads %j as %d s', (value, seconds) => {
    expect(parseRetryAfter(value, now)).toBe(seconds);
  });
  it.each([undefined, '', '-1', '1.5', 'soon', '2026-11-21T10:00:05Z'])('treats %j as absent or malformed', (value) => {
    expect(parseRetryAfter(value, now)).toBeUndefined();
  });

  // RFC 9110 §5.6.7: recipients MUST accept all three HTTP-date forms.
  it.each([
    ['IMF-fixdate', 'Sat, 21 Nov 2026 10:00:07 GMT'],
    ['rfc850-date', 'Saturday, 21-Nov-26 10:00:07 GMT'],
    ['asctime-date', 'Sat Nov 21 10:00:07 2026'],
  ])('reads the %s form', (_form, value) => {
    expect(parseRetryAfter(value, now)).toBe(7);
  });
  it('reads the RFC examples of the three forms as the same instant', () => {
    const instant = Date.UTC(1994, 10, 6, 8, 49, 37);
    const at1994 = Date.UTC(1994, 10, 1);
    expect(parseHttpDate('Sun, 06 Nov 1994 08:49:37 GMT', at1994)).toBe(instant);
    expect(parseHttpDate('Sunday, 06-Nov-94 08:49:37 GMT', at1994)).toBe(instant);
    expect(parseHttpDate('Sun Nov  6 08:49:37 1994', at1994)).toBe(instant);
  });
  it('reads a two-digit year more than 50 years ahead as the past century', () => {
    expect(new Date(parseHttpDate('Sunday, 06-Nov-94 08:49:37 GMT', now)!).getUTCFullYear()).toBe(1994);
    expect(new Date(parseHttpDate('Sunday, 06-Nov-50 08:49:37 GMT', now)!).getUTCFullYear()).toBe(2050);
    expect(new Date(parseHttpDate('Sunday, 06-Nov-77 08:49:37 GMT', now)!).getUTCFullYear()).toBe(2077 - 100);
  });
  it.each([
    'Sun, 6 Nov 1994 08:49:37 GMT', // IMF-fixdate needs two day digits
    'Sun, 06 Nov 1994 08:49:37 UTC',
    'Sun, 31 Nov 1994 08:49:37 GMT', // no such day
    'Sun, 06 Nov 1994 24:00:00 GMT',
    'Sun, 06-Nov-94 08:49:37 GMT', // rfc850 names the day in full
    'Sunday, 06-Nov-1994 08:49:37 GMT',
    'Sun Nov 6 08:49:37 1994', // asctime pads the day with a space
    'Sun Nov  6 08:49:37 1994 GMT',
  ])('rejects the malformed date %j', (value) => {
    expect(parseHttpDate(value, now)).toBeUndefined();
  });
});
