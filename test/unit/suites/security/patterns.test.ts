import { describe, expect, it } from 'vitest';
import { credentialFields } from '../../../../suites/security/exposure.ts';
import { internalsIn } from '../../../../suites/security/lib/internals.ts';
import { SSRF_GROUPS } from '../../../../suites/security/lib/ssrf-addresses.ts';
import { WebhookUrlPolicy } from '../../../../src/target/webhooks/url-policy.ts';

describe('internalsIn', () => {
  it('finds stack frames, tracebacks, source paths and exception names', () => {
    expect(internalsIn('{"stack":"TypeError: x\\n    at parse (/srv/app/body.js:4:9)"}').map((s) => s.split(' (')[0])).toEqual(['a JavaScript stack frame', 'a source file path', 'an exception name']);
    expect(internalsIn('Traceback (most recent call last):\n  File "/app/main.py", line 3')).toHaveLength(2);
    expect(internalsIn('java.lang.NullPointerException\n\tat com.x.Api.send(Api.java:42)').map((s) => s.split(' (')[0])).toEqual(['a Java or .NET stack frame', 'an exception name']);
  });

  it('passes the reference target\'s problem bodies', () => {
    for (const body of [
      '{"type":"https://api-harness.example/problems/invalid-json","title":"Bad Request","status":400,"code":"invalid_json","detail":"The body is not valid JSON."}',
      '{"type":"https://api-harness.example/problems/not-found","title":"Not Found","status":404,"code":"not_found","detail":"No resource at /v1/x."}',
    ]) expect(internalsIn(body)).toEqual([]);
  });
});

describe('credentialFields', () => {
  it('points at credential-looking properties with a value, at any depth', () => {
    expect(credentialFields({ data: [{ id: 'wh_1', secret: 'whsec_x' }, { id: 'wh_2', auth: { api_key: 'k', client_secret: '' } }] })).toEqual(['/data/0/secret', '/data/1/auth/api_key']);
    expect(credentialFields({ data: [{ id: 'wh_1', url: 'http://127.0.0.1/', events: [] }] })).toEqual([]);
  });
});

describe('SSRF groups', () => {
  it('are all refused by the reference policy, and none is loopback', () => {
    const policy = new WebhookUrlPolicy();
    for (const group of SSRF_GROUPS) {
      for (const url of group.urls) {
        expect(policy.check(url).ok, url).toBe(false);
        expect(new URL(url).hostname).not.toMatch(/^(127\.|\[::1\]|localhost)/);
      }
    }
  });
});
