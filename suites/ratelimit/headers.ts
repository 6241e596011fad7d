/**
 * Rate-limit headers on a success (PROFILE Rate limits: RateLimit-Policy and RateLimit of
 * draft-ietf-httpapi-ratelimit-headers-09, or the style the config names) and a remaining quota that goes down
 * as requests are made.
 */
import { defineCheck } from '../../src/conformance/check.ts';
import { fail, skip } from '../../src/conformance/outcomes.ts';
import type { CheckContext } from '../../src/conformance/context.ts';
import { guarded, requiresCredential, requiresProfile } from '../../src/conformance/preconditions.ts';
import { readRateLimit, type RateLimitReading } from '../../src/ratelimit/headers.ts';
import { probe } from '../lib/rate-limit-burst.ts';

async function readOne(ctx: CheckContext): Promise<RateLimitReading> {
  const style = ctx.config.api.rateLimitHeaders;
  if (style === 'none') skip('the config says the target sends no rate-limit headers (api.rateLimitHeaders: none)');
  const res = await probe(ctx, ctx.credentials.apiKey!);
  if (res.status < 200 || res.status > 299) skip(`a read with the API key answered ${res.status}, not a success to inspect`);
  return readRateLimit(res.headers, style, Date.now());
}

export const headersOnSuccess = guarded(
  defineCheck({
    id: 'ratelimit.headers.present-and-consistent',
    suite: 'ratelimit',
    title: 'A success carries well-formed rate-limit headers (quota, remaining, reset — reset optional for X-RateLimit-*) in the configured style',
    level: 'PROFILE',
    specRef: 'PROFILE Rate limits (RateLimit-Policy and RateLimit, draft-ietf-httpapi-ratelimit-headers-09); api.rateLimitHeaders',
    clauses: ['§8.1'],
    owasp: ['API4:2023'],
    async run(ctx) {
      const reading = await readOne(ctx);
      const configured = ctx.config.api.rateLimitHeaders;
      if (reading.style === 'none') {
        fail('expected rate-limit headers on a successful request (RateLimit-Policy / RateLimit, RateLimit-*, or X-RateLimit-*), got none', {
          expected: configured === 'auto' ? 'any rate-limit header style' : configured,
          actual: 'none',
        });
      }
      // X-RateLimit-* has no standard: Limit and Remaining are the convention's core, Reset is optional there.
      const needed = reading.style === 'x-ratelimit' ? (['quota', 'remaining'] as const) : (['quota', 'remaining', 'resetS'] as const);
      const missing = needed.filter((field) => reading[field] === undefined);
      const problems = [...reading.findings, ...missing.map((field) => `no ${field === 'resetS' ? 'reset' : field} could be read`)];
      if (problems.length > 0) {
        fail(`rate-limit headers (${reading.style}) are incomplete or inconsistent: ${[...new Set(problems)].join('; ')}`, {
          style: reading.style,
          findings: problems,
          reading,
        });
      }
    },
  }),
  requiresCredential('apiKey'),
  requiresProfile('rateLimitHeaders'),
);

/** A reset between the two reads legitimately refills the quota; then the pair is read again. */
const ATTEMPTS = 3;

export const remainingDecreases = requiresCredential('apiKey')(
  defineCheck({
    id: 'ratelimit.headers.remaining-decreases',
    suite: 'ratelimit',
    title: 'The remaining quota announced by the rate-limit headers goes down from one request to the next',
    level: 'SHOULD',
    specRef: 'draft-ietf-httpapi-ratelimit-headers-09 §4 (r: remaining quota units)',
    clauses: ['§8.1'],
    owasp: ['API4:2023'],
    async run(ctx) {
      const pairs: Array<[number | undefined, number | undefined]> = [];
      for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
        const first = await readOne(ctx);
        if (first.remaining === undefined) skip(`no remaining quota can be read from the headers (${first.style})`);
        const second = await readOne(ctx);
        pairs.push([first.remaining, second.remaining]);
        if (second.remaining !== undefined && second.remaining < first.remaining) return;
      }
      fail(`expected the remaining quota to go down between two consecutive requests, got ${pairs.map(([a, b]) => `${a} → ${b}`).join(', ')}`, {
        expected: 'second remaining < first remaining',
        actual: pairs,
      });
    },
  }),
);
