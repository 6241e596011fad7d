import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from '../../../src/http/retry-after.ts';

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
});
