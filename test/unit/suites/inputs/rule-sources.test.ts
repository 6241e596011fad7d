import { describe, expect, it } from 'vitest';
import { breaks, builtInRule, replacementRule } from '../../../../suites/inputs/lib/rule-sources.ts';

describe('rule sources of the built-in request schemas', () => {
  it('credit `to` rules to SERVICE-SPEC §2.1 and required fields to PROFILE', () => {
    const phone = { type: 'string', pattern: '^[1-9][0-9]{6,14}$' };
    expect(builtInRule('send-message-request', '/to', ['pattern'], phone, '+15551234567')?.source).toBe('SERVICE-SPEC §2.1');
    expect(builtInRule('send-message-request', '/to', ['required'])?.source).toMatch(/^PROFILE Messages/);
  });

  it('name no source for rules nobody stated', () => {
    expect(builtInRule('send-message-request', '', ['additionalProperties'])).toBeUndefined();
    expect(builtInRule('send-message-request', '/image/caption', ['maxLength'])).toBeUndefined();
    expect(builtInRule('send-message-request', '/template/name', ['pattern'], { type: 'string', pattern: '^[a-z0-9_]{1,512}$' }, 'A-B')).toBeUndefined();
    expect(builtInRule('webhook-request', '/secret', ['minLength'])).toBeUndefined();
  });

  it('credit a value only with the rule it really breaks: a URL that only misses the ^https?:// pattern is still a URL', () => {
    const link = { type: 'string', format: 'uri', pattern: '^https?://' };
    expect(breaks('format', link, 'htt-p://x.example.invalid/a')).toBe(false);
    expect(builtInRule('send-message-request', '/image/link', ['pattern', 'format'], link, 'htt-p://x.example.invalid/a')).toBeUndefined();
    expect(builtInRule('send-message-request', '/image/link', ['pattern', 'format'], link, '\u202ehttp://x.example.invalid/')).toBeDefined();
  });

  it('a replacement schema is its own source', () => {
    expect(replacementRule('login-request', '/email', ['format'], { type: 'string', format: 'email' }, 'nope').source).toBe("api.schemas login-request (the target's own schema)");
  });
});
