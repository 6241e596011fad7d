import { describe, expect, it } from 'vitest';
import { policyHeader, rateLimitHeader, rateLimitHeaders } from '../../../../src/target/ratelimit/headers.ts';
import type { RateDecision } from '../../../../src/target/ratelimit/types.ts';

const policy = { name: 'default', quota: 100, windowSeconds: 1, refillPerSecond: 100 };

describe('rate-limit headers (draft-ietf-httpapi-ratelimit-headers-09)', () => {
  it('formats RateLimit-Policy and RateLimit', () => {
    expect(policyHeader(policy)).toBe('"default";q=100;w=1');
    expect(rateLimitHeader({ allowed: true, policy, remaining: 7, resetSeconds: 1, retryAfterSeconds: 0 })).toBe(
      '"default";r=7;t=1',
    );
  });

  it('rounds a fractional window up to whole seconds', () => {
    expect(policyHeader({ ...policy, windowSeconds: 0.5 })).toBe('"default";q=100;w=1');
  });

  it('adds Retry-After only to refusals', () => {
    const refused: RateDecision = { allowed: false, policy, remaining: 0, resetSeconds: 2, retryAfterSeconds: 2 };
    expect(rateLimitHeaders(refused)['Retry-After']).toBe('2');
    expect(rateLimitHeaders({ ...refused, allowed: true })).not.toHaveProperty('Retry-After');
  });
});
