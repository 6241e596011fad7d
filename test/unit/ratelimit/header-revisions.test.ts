/**
 * Every published revision of draft-ietf-httpapi-ratelimit-headers (-00 to -11) and the common vendor forms, as
 * header sets → the claims read from them. Each row names its source: a draft's own example (the draft texts are
 * in github.com/ietf-wg-httpapi/ratelimit-headers, tags draft-ietf-httpapi-ratelimit-headers-01 … -10; -00 has the
 * shape of -01; -11 only adds Token names), or headers recorded from a real limiter. `auto` must detect the row's
 * format, and pinning that format must read the same.
 */
import { describe, expect, it } from 'vitest';
import type { RateLimitHeaderStyle } from '../../../src/config/types.ts';
import { detectFormats, readAllRateLimit, readRateLimit, type RateLimitReading } from '../../../src/ratelimit/headers.ts';

const NOW = Date.UTC(2025, 0, 1, 0, 0, 0);
const DATE = new Date(NOW).toUTCString();

interface Row {
  source: string;
  headers: Record<string, string>;
  expected: Partial<RateLimitReading>;
  /** Findings expected (each a pattern); none when absent. */
  findings?: RegExp[];
  /** Notes expected (each a pattern); any when absent. */
  notes?: RegExp[];
}

const ROWS: Row[] = [
  // Drafts -00 to -03: the window rides in RateLimit-Limit as quota policies after the limit.
  {
    source: 'draft -00/-01 "Unparameterized responses": no window stated',
    headers: { 'RateLimit-Limit': '100', 'RateLimit-Remaining': '50', 'RateLimit-Reset': '60' },
    expected: { style: 'ietf-draft-06', quota: 100, remaining: 50, resetS: 60, revision: expect.stringMatching(/-00 to -06/) as unknown as string },
  },
  {
    source: 'draft -01 "Throttling window specified via parameter"',
    headers: { 'RateLimit-Limit': '100, 100;w=60', 'RateLimit-Remaining': '49', 'RateLimit-Reset': '50' },
    expected: { style: 'ietf-draft-06', quota: 100, windowS: 60, remaining: 49, resetS: 50, revision: expect.stringMatching(/-00 to -03/) as unknown as string },
  },
  {
    source: 'draft -02 "Use with multiple windows" (RFC 8941 List)',
    headers: { 'RateLimit-Limit': '5000, 1000;w=3600, 5000;w=86400', 'RateLimit-Remaining': '100', 'RateLimit-Reset': '36000' },
    expected: { style: 'ietf-draft-06', quota: 5000, windowS: 86400, remaining: 100, resetS: 36000, policies: [{ quota: 1000, windowS: 3600 }, { quota: 5000, windowS: 86400 }] },
  },
  {
    source: 'draft -03 quota policies with comment parameters',
    headers: { 'RateLimit-Limit': '100, 100;w=60;burst=1000;comment="sliding window", 5000;w=3600;burst=0;comment="fixed window"', 'RateLimit-Remaining': '50', 'RateLimit-Reset': '44' },
    expected: { style: 'ietf-draft-06', quota: 100, windowS: 60, remaining: 50, resetS: 44 },
  },
  {
    source: 'draft -03 "Dynamic limits with parameterized windows": the expiring limit is below every policy',
    headers: { 'RateLimit-Limit': '10, 100;w=60', 'RateLimit-Remaining': '9', 'RateLimit-Reset': '50' },
    expected: { style: 'ietf-draft-06', quota: 10, windowS: undefined, remaining: 9, resetS: 50 },
    notes: [/no quota policy in RateLimit-Limit has the limit's quota 10/],
  },
  // Drafts -04 to -06: RateLimit-Policy beside the three fields.
  {
    source: 'draft -05 "Throttling window specified via parameter"',
    headers: { 'RateLimit-Limit': '100', 'RateLimit-Policy': '100;w=60', 'RateLimit-Remaining': '60', 'RateLimit-Reset': '58' },
    expected: { style: 'ietf-draft-06', quota: 100, windowS: 60, remaining: 60, resetS: 58, revision: expect.stringMatching(/-04 to -06/) as unknown as string },
  },
  {
    source: 'draft -06 "Use with multiple windows"',
    headers: { 'RateLimit-Limit': '5000', 'RateLimit-Policy': '1000;w=3600, 5000;w=86400', 'RateLimit-Remaining': '100', 'RateLimit-Reset': '36000' },
    expected: { style: 'ietf-draft-06', quota: 5000, windowS: 86400, remaining: 100, resetS: 36000 },
  },
  {
    source: 'draft -06 "invalid header field value with two policies associated with the same quota units"',
    headers: { 'RateLimit-Limit': '10', 'RateLimit-Policy': '10;w=1, 10;w=60', 'RateLimit-Remaining': '1', 'RateLimit-Reset': '1' },
    expected: { style: 'ietf-draft-06', quota: 10, windowS: 1 },
    findings: [/two quota policies have the same quota \(10\)/],
  },
  {
    source: 'express-rate-limit 8.7 standardHeaders draft-6 (recorded, issue 23)',
    headers: { 'RateLimit-Policy': '20;w=5', 'RateLimit-Limit': '20', 'RateLimit-Remaining': '19', 'RateLimit-Reset': '5' },
    expected: { style: 'ietf-draft-06', quota: 20, windowS: 5, remaining: 19, resetS: 5 },
  },
  {
    source: '@fastify/rate-limit 11 enableDraftSpec (recorded): no policy, no window',
    headers: { 'ratelimit-limit': '5', 'ratelimit-remaining': '4', 'ratelimit-reset': '2' },
    expected: { style: 'ietf-draft-06', quota: 5, windowS: undefined, remaining: 4, resetS: 2 },
  },
  {
    source: 'a RateLimit-Reset sent as an epoch time (not delay-seconds): read, and a finding',
    headers: { 'RateLimit-Limit': '100', 'RateLimit-Remaining': '5', 'RateLimit-Reset': String(NOW / 1000 + 30), Date: DATE },
    expected: { style: 'ietf-draft-06', quota: 100, resetS: 30, resetForm: 'epoch-seconds' },
    findings: [/RateLimit-Reset \d+ is epoch seconds, but the drafts define it as delay-seconds; read as 30 s/],
  },
  {
    source: 'a fractional RateLimit-Reset (delay-seconds are whole seconds): read, and a finding',
    headers: { 'RateLimit-Limit': '100', 'RateLimit-Remaining': '5', 'RateLimit-Reset': '1.5' },
    expected: { style: 'ietf-draft-06', resetS: 1.5 },
    findings: [/RateLimit-Reset must be a whole number of seconds \(delay-seconds\), got 1.5/],
  },
  // Draft -07: the RateLimit Dictionary.
  {
    source: 'draft -07 "Throttling window specified via parameter"',
    headers: { RateLimit: 'limit=100, remaining=50, reset=44', 'RateLimit-Policy': '100;w=60' },
    expected: { style: 'ietf-draft-07', quota: 100, windowS: 60, remaining: 50, resetS: 44, revision: expect.stringMatching(/-07/) as unknown as string },
  },
  {
    source: 'draft -07 "Missing Remaining information" (remaining is OPTIONAL)',
    headers: { RateLimit: 'limit=10, reset=1' },
    expected: { style: 'ietf-draft-07', quota: 10, remaining: undefined, resetS: 1 },
  },
  {
    source: 'draft -07 "Use with multiple windows"',
    headers: { RateLimit: 'limit=5000, remaining=100, reset=36000', 'RateLimit-Policy': '1000;w=3600, 5000;w=86400' },
    expected: { style: 'ietf-draft-07', quota: 5000, windowS: 86400, remaining: 100, resetS: 36000 },
  },
  {
    source: 'express-rate-limit 8.7 standardHeaders draft-7 (recorded, issue 23)',
    headers: { ratelimit: 'limit=20, remaining=19, reset=5', 'ratelimit-policy': '20;w=5' },
    expected: { style: 'ietf-draft-07', quota: 20, windowS: 5, remaining: 19, resetS: 5 },
  },
  {
    source: 'draft -07 without its REQUIRED reset key',
    headers: { RateLimit: 'limit=100, remaining=5', 'RateLimit-Policy': '100;w=60' },
    expected: { style: 'ietf-draft-07', quota: 100, windowS: 60, remaining: 5, resetS: undefined },
    findings: [/the reset key is missing \(REQUIRED in draft -07\)/],
  },
  // Drafts -08 to -11: named policies.
  {
    source: 'draft -08 "RateLimit Policy Field Examples" (several policies)',
    headers: { 'RateLimit-Policy': '"permin";q=50;w=60,"perhr";q=1000;w=3600', RateLimit: '"permin";r=49;t=30' },
    expected: { style: 'ietf-draft-09', quota: 50, windowS: 60, remaining: 49, resetS: 30, revision: expect.stringMatching(/-08 to -11/) as unknown as string },
  },
  {
    source: 'express-rate-limit 8.7 standardHeaders draft-8 (recorded; pk is a Byte Sequence)',
    headers: { 'ratelimit-policy': '"20-in-5sec"; q=20; w=5; pk=:MTJjYTE3YjQ5YWYy:', ratelimit: '"20-in-5sec"; r=19; t=5' },
    expected: { style: 'ietf-draft-09', quota: 20, windowS: 5, remaining: 19, resetS: 5 },
  },
  {
    source: 'draft -09 quota unit and partition key',
    headers: { 'RateLimit-Policy': '"peruser";q=65535;qu="content-bytes";w=10;pk=:c2Rmaw==:', RateLimit: '"peruser";r=1000;t=5;pk=:c2Rmaw==:' },
    expected: { style: 'ietf-draft-09', quota: 65535, windowS: 10, remaining: 1000, resetS: 5, quotaUnit: 'content-bytes' },
  },
  {
    source: 'draft -10 "hour" and "day" policies, the binding one reported',
    headers: { 'RateLimit-Policy': '"hour";q=1000;w=3600, "day";q=5000;w=86400', RateLimit: '"day";r=100;t=36000' },
    expected: { style: 'ietf-draft-09', quota: 5000, windowS: 86400, remaining: 100, resetS: 36000 },
  },
  {
    source: "draft -10's own example with a Token name and no r (r is REQUIRED there)",
    headers: { 'RateLimit-Policy': 'quota;q=100;w=1', RateLimit: 'quota;t=1' },
    expected: { style: 'ietf-draft-09', quota: 100, windowS: 1, remaining: undefined, resetS: 1 },
    findings: [/RateLimit "quota": parameter r is missing/],
    notes: [/the policy name quota is a Token, which draft -11 allows/, /Token/],
  },
  {
    source: 'draft -11 Token policy names (a name such as limit is not a -07 key)',
    headers: { 'RateLimit-Policy': 'limit;q=100;w=60', RateLimit: 'limit;r=42;t=7' },
    expected: { style: 'ietf-draft-09', quota: 100, windowS: 60, remaining: 42, resetS: 7 },
  },
  {
    source: 'draft -08 pinned against -06 headers: the older form named',
    headers: { 'RateLimit-Policy': '20;w=5', RateLimit: '"x";r=1' },
    expected: { style: 'ietf-draft-09' },
    findings: [/20 is an unnamed quota policy of drafts -04 to -07/, /names policy "x", which RateLimit-Policy does not announce/],
  },
  // Vendor forms.
  {
    source: '@fastify/rate-limit 11 default (recorded): X-RateLimit-* with a delta reset',
    headers: { 'x-ratelimit-limit': '5', 'x-ratelimit-remaining': '4', 'x-ratelimit-reset': '2', date: DATE },
    expected: { style: 'x-ratelimit', quota: 5, windowS: undefined, remaining: 4, resetS: 2, resetForm: undefined },
    notes: [/X-RateLimit-Reset 2 read as delta seconds/],
  },
  {
    source: 'express-rate-limit legacyHeaders / GitHub: epoch-seconds reset beside the Date',
    headers: { 'X-RateLimit-Limit': '5000', 'X-RateLimit-Remaining': '4999', 'X-RateLimit-Used': '1', 'X-RateLimit-Reset': String(NOW / 1000 + 1800), Date: DATE },
    expected: { style: 'x-ratelimit', quota: 5000, remaining: 4999, used: 1, resetS: 1800, resetForm: 'epoch-seconds' },
    notes: [/read as epoch seconds .*: 1800 s after the local clock \(the response's Date agrees within 2 s\)/],
  },
  {
    source: 'X-RateLimit-Reset in epoch milliseconds',
    headers: { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '10', 'x-ratelimit-reset': String(NOW + 30_000) },
    expected: { style: 'x-ratelimit', quota: 60, resetS: 30, resetForm: 'epoch-milliseconds' },
    notes: [/read as epoch milliseconds .*: 30 s after the local clock \(the response has no Date\)/],
  },
  {
    source: 'X-RateLimit-Reset as an HTTP-date',
    headers: { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '10', 'x-ratelimit-reset': new Date(NOW + 60_000).toUTCString() },
    expected: { style: 'x-ratelimit', quota: 60, resetS: 60, resetForm: 'http-date' },
  },
  {
    source: "an epoch reset read against the response's Date when the clocks disagree (target 1 h ahead)",
    headers: { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '10', 'x-ratelimit-reset': String(NOW / 1000 + 3600 + 10), date: new Date(NOW + 3_600_000).toUTCString() },
    expected: { style: 'x-ratelimit', resetS: 10, resetForm: 'epoch-seconds' },
    notes: [/10 s after the response's Date \(3600 s off the local clock\)/],
  },
  {
    source: 'GitHub: X-RateLimit-Used without X-RateLimit-Limit',
    headers: { 'x-ratelimit-remaining': '4990', 'x-ratelimit-used': '10' },
    expected: { style: 'x-ratelimit', quota: 5000, used: 10, remaining: 4990 },
    notes: [/the limit is read as X-RateLimit-Used \+ X-RateLimit-Remaining = 5000/],
  },
  {
    source: 'X-RateLimit-Used that does not add up',
    headers: { 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '5', 'x-ratelimit-used': '3' },
    expected: { style: 'x-ratelimit', quota: 10, used: 3 },
    findings: [/X-RateLimit-Used \(3\) \+ X-RateLimit-Remaining \(5\) is not X-RateLimit-Limit \(10\)/],
  },
  {
    source: 'X-Rate-Limit-* spelling (draft -01 appendix "RateLimit fields currently used on the web")',
    headers: { 'x-rate-limit-limit': '900', 'x-rate-limit-remaining': '899', 'x-rate-limit-reset': String(NOW / 1000 + 900) },
    expected: { style: 'x-ratelimit', quota: 900, remaining: 899, resetS: 900, revision: 'X-Rate-Limit-* (vendor convention, no standard)' },
  },
  {
    source: 'RateLimit-Policy (-04 form) beside X-RateLimit-*: the window',
    headers: { 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '99', 'x-ratelimit-reset': '60', 'ratelimit-policy': '100;w=60' },
    expected: { style: 'x-ratelimit', quota: 100, windowS: 60, remaining: 99 },
  },
  {
    source: 'RateLimit-Policy (-08 form) beside X-RateLimit-*: the window, and the mix noted',
    headers: { 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '99', 'ratelimit-policy': '"default";q=100;w=60' },
    expected: { style: 'x-ratelimit', quota: 100, windowS: 60 },
    notes: [/RateLimit-Policy uses the named policies of draft -08 on beside X-RateLimit-\*/],
  },
  {
    source: 'RateLimit-Policy (-08 form) beside the -00 to -06 fields',
    headers: { 'ratelimit-limit': '100', 'ratelimit-remaining': '99', 'ratelimit-reset': '3', 'ratelimit-policy': '"default";q=100;w=60' },
    expected: { style: 'ietf-draft-06', quota: 100, windowS: 60 },
    notes: [/named policies of draft -08 on beside RateLimit-Limit, -Remaining and -Reset/],
  },
];

describe('header readers: every revision and vendor form', () => {
  it.each(ROWS.map((row) => [row.source, row] as const))('%s', (_source, row) => {
    const auto = readRateLimit(row.headers, 'auto', NOW);
    // `key: undefined` in a row means the headers do not state it: the reading has no such property.
    expect(auto).toMatchObject(Object.fromEntries(Object.entries(row.expected).filter(([, v]) => v !== undefined)));
    for (const [key, value] of Object.entries(row.expected)) if (value === undefined) expect(auto).not.toHaveProperty(key);
    if (row.findings) for (const f of row.findings) expect(auto.findings.some((x) => f.test(x)), `${f} in ${JSON.stringify(auto.findings)}`).toBe(true);
    else expect(auto.findings).toEqual([]);
    if (row.notes) for (const n of row.notes) expect(auto.notes.some((x) => n.test(x)), `${n} in ${JSON.stringify(auto.notes)}`).toBe(true);
    // Pinning the detected format reads exactly what auto read.
    expect(readRateLimit(row.headers, auto.style as RateLimitHeaderStyle, NOW)).toEqual(auto);
  });
});

describe('several families in one response', () => {
  // express-rate-limit's defaults: the standard headers and legacyHeaders (X-RateLimit-*, epoch reset, Date).
  const expressDraft6 = {
    date: DATE,
    'ratelimit-policy': '5;w=2', 'ratelimit-limit': '5', 'ratelimit-remaining': '4', 'ratelimit-reset': '2',
    'x-ratelimit-limit': '5', 'x-ratelimit-remaining': '4', 'x-ratelimit-reset': String(NOW / 1000 + 3),
  };

  it('auto reads the newest IETF family; each family is read on its own', () => {
    expect(detectFormats(expressDraft6)).toEqual(['ietf-draft-06', 'x-ratelimit']);
    expect(readRateLimit(expressDraft6, 'auto', NOW)).toMatchObject({ style: 'ietf-draft-06', quota: 5, windowS: 2, remaining: 4, resetS: 2 });
    const [ietf, x] = readAllRateLimit(expressDraft6, NOW);
    expect(ietf).toMatchObject({ style: 'ietf-draft-06', quota: 5, windowS: 2 });
    // The epoch reset is rounded up to whole seconds by the limiter: one second over the window is its resolution.
    expect(x).toMatchObject({ style: 'x-ratelimit', quota: 5, windowS: 2, remaining: 4, resetS: 3, resetForm: 'epoch-seconds', findings: [] });
  });

  it('the -07 dictionary and the -08 list are told apart by structure, not by name', () => {
    expect(detectFormats({ ratelimit: 'limit=20, remaining=19, reset=5', 'ratelimit-policy': '20;w=5' })).toEqual(['ietf-draft-07']);
    expect(detectFormats({ ratelimit: '"p";r=19;t=5', 'ratelimit-policy': '"p";q=20;w=5' })).toEqual(['ietf-draft-09']);
    expect(detectFormats({ 'ratelimit-policy': '20;w=5' })).toEqual(['ietf-draft-06']);
    expect(detectFormats({ 'ratelimit-policy': '"p";q=20;w=5' })).toEqual(['ietf-draft-09']);
    expect(detectFormats({ 'content-type': 'application/json' })).toEqual([]);
  });
});
