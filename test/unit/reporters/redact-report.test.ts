import { describe, expect, it } from 'vitest';
import { SecretRegistry } from '../../../src/http/redact.ts';
import { redactStrings } from '../../../src/report/redact-report.ts';

describe('redactStrings', () => {
  it('redacts every string and key, deeply, before any encoding', () => {
    const secret = 'pa"ss\\word<1>';
    const value = { a: [`x ${secret} y`, 1, null, true], [secret]: { b: secret } };
    expect(redactStrings(value, new SecretRegistry([secret]))).toEqual({ a: ['x [REDACTED] y', 1, null, true], '[REDACTED]': { b: '[REDACTED]' } });
    expect(value.a[0]).toContain(secret);
  });
});

describe('SecretRegistry.redactText', () => {
  it('also finds a secret a target echoed inside a JSON string (quotes and backslashes escaped)', () => {
    const secret = 'pa"ss\\word<1>';
    const body = JSON.stringify({ echo: `you sent ${secret}` });
    expect(new SecretRegistry([secret]).redactText(body)).toBe('{"echo":"you sent [REDACTED]"}');
  });
});
