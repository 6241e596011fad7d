import { describe, expect, it } from 'vitest';
import { detectStyle, parsePolicyHeader, parseRateLimitHeader, readRateLimit, resetSeconds } from '../../../src/ratelimit/headers.ts';
import { parseList, StructuredFieldError } from '../../../src/ratelimit/structured-fields.ts';

const NOW = Date.UTC(2025, 0, 1, 0, 0, 0);

describe('structured field lists (RFC 9651)', () => {
  it('parses items of every bare type with parameters', () => {
    // The Date is the last member: structured-headers 2.1.0 reads a Date up to the end of the field, so a Date
    // followed by another member does not parse (no rate-limit field carries a Date).
    const list = parseList('"a";q=1;w=2, tok;x, 1.5, ?0, :aGk=:, %"h%c3%a9", (1 2);p=-3, @1700000000');
    expect(list.map((m) => m.item.kind)).toEqual(['string', 'token', 'decimal', 'boolean', 'bytes', 'display', 'inner', 'date']);
    expect(list[0]!.params.get('q')).toEqual({ kind: 'integer', value: 1 });
    expect(list[1]!.params.get('x')).toEqual({ kind: 'boolean', value: true });
    expect(Buffer.from((list[4]!.item as { value: Uint8Array }).value).toString()).toBe('hi');
    expect(list[5]!.item).toEqual({ kind: 'display', value: 'h\u00e9' });
    expect(list[6]!.params.get('p')).toEqual({ kind: 'integer', value: -3 });
    expect(list[7]!.item).toEqual({ kind: 'date', value: 1700000000 });
  });

  it('parses string escapes and tolerates surrounding whitespace', () => {
    expect(parseList('  "a\\"b\\\\c" ,\t"d" ')[0]!.item).toEqual({ kind: 'string', value: 'a"b\\c' });
  });

  it.each(['"open', 'a,', '"x";Q=1', '1234567890123456', '"a" "b"', ':abc', '?2', '"\u00e9"', '(1 2'])('rejects %j', (value) => {
    expect(() => parseList(value)).toThrow(StructuredFieldError);
  });
});

describe('IETF draft-09 RateLimit-Policy / RateLimit', () => {
  it('reads several policies and their parameters', () => {
    const findings: string[] = [];
    const policies = parsePolicyHeader('"burst";q=100;w=1, "daily";q=1000;w=86400;qu="requests";pk=:cHQ=:', findings);
    expect(findings).toEqual([]);
    expect(policies).toMatchObject([
      { name: 'burst', quota: 100, windowS: 1 },
      { name: 'daily', quota: 1000, windowS: 86400, quotaUnit: 'requests' },
    ]);
    expect(Buffer.from(policies[1]!.partitionKey!).toString()).toBe('pt');
  });

  it('reads r and t', () => {
    const findings: string[] = [];
    expect(parseRateLimitHeader('"default";r=42;t=3', findings)).toMatchObject([{ name: 'default', remaining: 42, resetS: 3 }]);
    expect(findings).toEqual([]);
  });

  it('reports the binding policy (fewest remaining) when there are several', () => {
    const reading = readRateLimit(
      { 'ratelimit-policy': '"burst";q=100;w=1, "daily";q=1000;w=86400', ratelimit: '"burst";r=90;t=1, "daily";r=5;t=600' },
      'auto',
      NOW,
    );
    expect(reading).toMatchObject({ style: 'ietf-draft-09', quota: 1000, windowS: 86400, remaining: 5, resetS: 600, findings: [], notes: [] });
    expect(reading.policies).toEqual([{ name: 'burst', quota: 100, windowS: 1 }, { name: 'daily', quota: 1000, windowS: 86400 }]);
  });

  it('reads the reference target headers', () => {
    expect(readRateLimit({ 'ratelimit-policy': '"default";q=100;w=1', ratelimit: '"default";r=99;t=1' }, 'ietf-draft-09', NOW)).toMatchObject({
      style: 'ietf-draft-09', quota: 100, windowS: 1, remaining: 99, resetS: 1, findings: [], notes: [],
      fields: { 'RateLimit-Policy': '"default";q=100;w=1', RateLimit: '"default";r=99;t=1' },
    });
  });

  it('turns malformed and missing parts into findings', () => {
    const reading = readRateLimit({ 'ratelimit-policy': 'default;q=abc', ratelimit: '"other";t=-1' }, 'auto', NOW);
    expect(reading.style).toBe('ietf-draft-09');
    // A Token name is allowed from draft -11 on: a note, not a finding.
    expect(reading.notes.join('\n')).toMatch(/is a Token, which draft -11 allows/);
    expect(reading.findings.join('\n')).toMatch(/q must be a non-negative Integer/);
    expect(reading.findings.join('\n')).toMatch(/parameter r is missing/);
    expect(reading.findings.join('\n')).toMatch(/t must be a non-negative Integer/);
    expect(reading.findings.join('\n')).toMatch(/names policy "other"/);
    expect(readRateLimit({ ratelimit: 'not a list;;' }, 'auto', NOW).findings.join('\n')).toMatch(/not a valid Structured Field List/);
    expect(readRateLimit({ ratelimit: '"d";r=1' }, 'auto', NOW).findings).toContain('RateLimit-Policy is missing');
  });

  it('flags remaining above the quota and a reset longer than the window', () => {
    const { findings } = readRateLimit({ 'ratelimit-policy': '"d";q=10;w=1', ratelimit: '"d";r=11;t=5' }, 'auto', NOW);
    expect(findings).toEqual(['remaining (11) exceeds the quota (10)', 'reset (5 s) is longer than the window (1 s)']);
  });
});

describe('IETF draft-06 RateLimit-Limit / -Remaining / -Reset', () => {
  it('reads limit, window from the quota policy, remaining and reset', () => {
    expect(readRateLimit({ 'ratelimit-limit': '100, 100;w=60, 1000;w=3600', 'ratelimit-remaining': '7', 'ratelimit-reset': '12' }, 'auto', NOW)).toMatchObject({
      style: 'ietf-draft-06', quota: 100, windowS: 60, remaining: 7, resetS: 12, findings: [], notes: [],
    });
  });

  it('reports malformed values', () => {
    const reading = readRateLimit({ 'ratelimit-limit': 'lots', 'ratelimit-remaining': '-1' }, 'ietf-draft-06', NOW);
    expect(reading.findings).toEqual([
      'RateLimit-Limit must start with a non-negative integer, got "lots"',
      'RateLimit-Remaining must be a non-negative integer, got "-1"',
      'RateLimit-Reset is missing',
    ]);
  });
});

describe('X-RateLimit-*', () => {
  it('reads a delta-seconds reset', () => {
    expect(readRateLimit({ 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '59', 'x-ratelimit-reset': '30' }, 'auto', NOW)).toMatchObject({
      style: 'x-ratelimit', quota: 60, remaining: 59, resetS: 30, findings: [], notes: ['X-RateLimit-Reset 30 read as delta seconds (far below an epoch time)'],
    });
  });

  it('reads an epoch-seconds reset as seconds from now', () => {
    const reading = readRateLimit({ 'X-RateLimit-Limit': '5000', 'X-RateLimit-Remaining': '4999', 'X-RateLimit-Reset': String(NOW / 1000 + 1800) }, 'x-ratelimit', NOW);
    expect(reading).toMatchObject({ quota: 5000, remaining: 4999, resetS: 1800, findings: [] });
  });

  it('tells delta, epoch seconds and epoch milliseconds apart by magnitude', () => {
    const findings: string[] = [];
    expect(resetSeconds(86_400 * 365, NOW, findings)).toBe(86_400 * 365);
    expect(resetSeconds(NOW / 1000 + 5, NOW, findings)).toBe(5);
    expect(resetSeconds(NOW + 5000, NOW, findings)).toBe(5);
    expect(findings).toEqual([]);
    expect(resetSeconds(NOW / 1000 - 10, NOW, findings)).toBe(0);
    expect(findings).toEqual(['X-RateLimit-Reset (epoch seconds) lies 10 s in the past of the local clock (the response has no Date)']);
  });

  it('takes the leading integer of a limit with a policy', () => {
    expect(readRateLimit({ 'x-ratelimit-limit': '100, 100;w=60', 'x-ratelimit-remaining': '1', 'x-ratelimit-reset': '3' }, 'auto', NOW)).toMatchObject({ quota: 100, windowS: 60 });
  });
});

describe('style selection', () => {
  it('detects each style and none', () => {
    expect(detectStyle({ ratelimit: '"a";r=1' })).toBe('ietf-draft-09');
    expect(detectStyle({ 'ratelimit-remaining': '1' })).toBe('ietf-draft-06');
    expect(detectStyle({ 'x-ratelimit-reset': '1' })).toBe('x-ratelimit');
    expect(detectStyle({ 'content-type': 'application/json' })).toBe('none');
    expect(readRateLimit({}, 'auto', NOW)).toEqual({ style: 'none', findings: [], notes: [] });
  });

  it('a pinned style reports its own headers as missing', () => {
    const reading = readRateLimit({ 'x-ratelimit-limit': '5' }, 'ietf-draft-09', NOW);
    expect(reading.style).toBe('ietf-draft-09');
    expect(reading.findings).toEqual(['RateLimit-Policy is missing', 'RateLimit is missing']);
  });

  it('"none" reads nothing', () => {
    expect(readRateLimit({ ratelimit: '"a";r=1' }, 'none', NOW)).toEqual({ style: 'none', findings: [], notes: [] });
  });
});
