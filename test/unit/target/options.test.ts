import { describe, expect, it } from 'vitest';
import { TargetStartError } from '../../../src/errors/harness-errors.ts';
import { defaultConfig } from '../../../src/config/defaults.ts';
import { DEFAULTS, resolveOptions } from '../../../src/target/options.ts';

describe('resolveOptions', () => {
  it('its defaults are the config\'s reference: defaults, so `harness serve` with and without a config file agree', () => {
    // The target imports no harness code (ARCHITECTURE), so the two tables exist twice; this keeps them equal.
    const { host: _host, port: _port, credentials: _credentials, ...reference } = defaultConfig().reference;
    // Socket timeouts are the target's own (not in the config): an exposed target sets them whatever the file says.
    const { bodyLimitBytes: _bodyLimit, server: _server, stores: _stores, ...targetDefaults } = DEFAULTS;
    expect(targetDefaults).toEqual(reference);
  });

  it('applies the @default values of ReferenceConfig', () => {
    const o = resolveOptions();
    expect(o.rateLimit).toEqual({ algorithm: 'fixed-window', quota: 100, windowSeconds: 1, refillPerSecond: 100, anonymousQuota: 200 });
    expect(o.loadQuota).toBe(1_000_000_000);
    expect(o.injectLatencyMs).toBe(0);
    expect(o.loginThrottle).toEqual({ attempts: 5, windowSeconds: 60 });
    expect(o.tokens).toEqual({ jwtTtlSeconds: 900, accessTokenTtlSeconds: 3600, codeTtlSeconds: 60 });
    expect(o.statusDelaysMs).toEqual({ delivered: 200, read: 400 });
    expect(o.webhooks).toEqual({ attempts: 5, baseDelayMs: 500, timeoutMs: 5000, allow: [] });
    expect(o.server).toEqual({ keepAliveMs: 5000, headersMs: 10000, requestMs: 30000, idleMs: 30000 });
    expect(o.now).toBe(Date.now);
    expect(o.logger).toBe(false);
  });

  it('derives the token-bucket refill from quota and window', () => {
    expect(resolveOptions({ rateLimit: { quota: 10, windowSeconds: 5 } }).rateLimit.refillPerSecond).toBe(2);
    expect(resolveOptions({ rateLimit: { quota: 10, refillPerSecond: 3 } }).rateLimit.refillPerSecond).toBe(3);
  });

  it('keeps given values and rejects nonsense with a TargetStartError', () => {
    expect(resolveOptions({ statusDelaysMs: { delivered: 0 } }).statusDelaysMs).toEqual({ delivered: 0, read: 400 });
    expect(() => resolveOptions({ rateLimit: { quota: 0 } })).toThrow(TargetStartError);
    expect(() => resolveOptions({ tokens: { codeTtlSeconds: Number.NaN } })).toThrow(/tokens.codeTtlSeconds/);
  });
});
