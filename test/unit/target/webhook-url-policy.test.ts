import { describe, expect, it } from 'vitest';
import { classifyAddress } from '../../../src/target/webhooks/address-class.ts';
import { policyLookup } from '../../../src/target/webhooks/safe-lookup.ts';
import { WebhookUrlPolicy } from '../../../src/target/webhooks/url-policy.ts';
import { REFUSED_URLS } from '../../helpers/ssrf-urls.ts';


describe('webhook URL policy', () => {
  const policy = new WebhookUrlPolicy();

  for (const [url, reason] of REFUSED_URLS) {
    it(`refuses ${url}`, () => {
      const decision = policy.check(url);
      expect(decision.ok).toBe(false);
      if (!decision.ok) expect(decision.reason).toMatch(reason);
    });
  }

  it('allows loopback by default (the harness receiver is on 127.0.0.1), without any lookup for localhost names', () => {
    expect(policy.check('http://127.0.0.1:43121/hook')).toMatchObject({ ok: true, kind: 'address' });
    expect(policy.check('http://[::1]:8080/')).toMatchObject({ ok: true, kind: 'address' });
    expect(policy.check('http://localhost:8080/')).toMatchObject({ ok: true, kind: 'loopback-name' });
  });

  it('accepts special-use names that never resolve, marked so delivery never looks them up', () => {
    for (const url of ['https://abc.example.invalid/x', 'http://a.test/', 'http://example/', 'http://x.example/']) {
      expect(policy.check(url)).toMatchObject({ ok: true, kind: 'special-use' });
    }
  });

  it('allows what the allow list names, by host or host:port', () => {
    const allowing = new WebhookUrlPolicy(['hooks.example.com', 'receiver.internal:8443', '10.1.2.3']);
    expect(allowing.check('https://hooks.example.com/x')).toMatchObject({ ok: true, kind: 'name' });
    expect(allowing.check('https://receiver.internal:8443/x')).toMatchObject({ ok: true });
    expect(allowing.check('https://receiver.internal:9000/x').ok).toBe(false);
    expect(allowing.check('http://10.1.2.3/x')).toMatchObject({ ok: true, kind: 'address' });
    expect(allowing.check('http://10.1.2.4/x').ok).toBe(false);
    expect(() => new WebhookUrlPolicy(['http://x/y'])).toThrow(/host or host:port/);
  });

  it('classifies addresses, IPv4-mapped and NAT64 forms by the IPv4 inside', () => {
    expect(classifyAddress('127.0.0.5')).toBe('loopback');
    expect(classifyAddress('::ffff:127.0.0.1')).toBe('loopback');
    expect(classifyAddress('::ffff:7f00:1')).toBe('loopback');
    expect(classifyAddress('100.64.0.1')).toBe('private');
    expect(classifyAddress('224.0.0.1')).toBe('multicast');
    expect(classifyAddress('ff02::1')).toBe('multicast');
    expect(classifyAddress('93.184.215.14')).toBe('public');
    expect(classifyAddress('2606:2800:21f:cb07:6820:80da:af6b:8b2c')).toBe('public');
    expect(classifyAddress('not-an-ip')).toBeUndefined();
  });
});

describe('webhook delivery lookup', () => {
  const lookupWith = (allow: string[], addresses: string[]) =>
    policyLookup(new WebhookUrlPolicy(allow), (_host, callback) => callback(null, addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))));

  const run = (lookup: ReturnType<typeof policyLookup>, host: string) =>
    new Promise<{ err: Error | null; addresses?: unknown }>((resolve) => (lookup as any)(host, { all: true }, (err: Error | null, addresses: unknown) => resolve({ err, addresses })));

  it('refuses a name that resolves to a refused address, even one of several (DNS rebinding)', async () => {
    const { err } = await run(lookupWith(['hooks.example.com'], ['93.184.215.14', '169.254.169.254']), 'hooks.example.com');
    expect(err?.message).toMatch(/resolves to a refused address: .*metadata/);
  });

  it('answers the addresses it checked', async () => {
    const { err, addresses } = await run(lookupWith(['hooks.example.com'], ['93.184.215.14']), 'hooks.example.com');
    expect(err).toBeNull();
    expect(addresses).toEqual([{ address: '93.184.215.14', family: 4 }]);
  });

  it('answers loopback for localhost names without resolving them', async () => {
    const lookup = policyLookup(new WebhookUrlPolicy(), () => {
      throw new Error('must not resolve');
    });
    expect((await run(lookup, 'localhost')).addresses).toEqual([{ address: '127.0.0.1', family: 4 }]);
  });
});
