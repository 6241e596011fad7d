import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../../src/config/defaults.ts';
import { seededRandom } from '../../../src/load/random.ts';
import { createRequestMix, weightedRoundRobin } from '../../../src/load/request-mix.ts';
import { compileTemplate, newTemplateState, phoneNumber, uuidV4 } from '../../../src/load/template.ts';

describe('templating', () => {
  const state = () => newTemplateState(seededRandom(42), () => Date.parse('2030-01-01T00:00:00.000Z'));

  it('renders {{seq}} as one growing sequence, and constants unchanged', () => {
    const s = state();
    const { template, problems } = compileTemplate('{"n":"{{seq}}","m":"{{ seq }}"}');
    expect(problems).toEqual([]);
    expect(template.render(s)).toBe('{"n":"1","m":"2"}');
    expect(template.render(s)).toBe('{"n":"3","m":"4"}');
    const constant = compileTemplate('plain text').template;
    expect(constant.constant).toBe(true);
    expect(constant.render(s)).toBe('plain text');
  });

  it('makes valid phone numbers and v4 UUIDs', () => {
    const random = seededRandom(7);
    for (let i = 0; i < 2000; i++) expect(phoneNumber(random)).toMatch(/^[1-9][0-9]{6,14}$/);
    for (let i = 0; i < 200; i++) expect(uuidV4(random)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('renders time, ranges and strings, and reports bad placeholders', () => {
    const s = state();
    expect(compileTemplate('{{timestamp}} {{epochMs}}').template.render(s)).toBe('2030-01-01T00:00:00.000Z 1893456000000');
    for (let i = 0; i < 100; i++) {
      const n = Number(compileTemplate('{{int 3 5}}').template.render(s));
      expect(n).toBeGreaterThanOrEqual(3);
      expect(n).toBeLessThanOrEqual(5);
    }
    expect(compileTemplate('{{string 12}}').template.render(s)).toMatch(/^[A-Za-z0-9]{12}$/);
    expect(compileTemplate('{{seq 1}} {{int 1}} {{string x}} {{what}}').problems).toEqual([
      '{{seq}} takes no arguments, got 1',
      '{{int}} takes 2 arguments, got 1',
      '{{string N}} needs a length 1..10000, got "x"',
      'unknown placeholder {{what}} (known: {{seq}}, {{phone}}, {{uuid}}, {{timestamp}}, {{epochMs}}, {{int}}, {{string}})',
    ]);
  });
});

describe('request mix', () => {
  it('interleaves by weight exactly in every cycle (smooth weighted round-robin)', () => {
    const next = weightedRoundRobin(['a', 'b', 'c'], [3, 1, 1]);
    const picks = Array.from({ length: 10 }, next).join('');
    expect(picks).toBe('abacaabaca');
    expect([...picks.slice(0, 5)].sort().join('')).toBe('aaabc');
    expect([...picks.slice(5)].sort().join('')).toBe('aaabc');
  });

  it('prepares operations with the config’s paths, the bearer and templated bodies', () => {
    const config = defaultConfig();
    const mix = createRequestMix(
      { requests: [{ name: 'send', weight: 1, operation: 'send' }, { name: 'list', weight: 1, operation: 'list', query: { since: '{{timestamp}}' } }] },
      { api: config.api, credentials: {}, bearer: 'sk_test' },
    );
    const s = newTemplateState(seededRandom(1), () => 0);
    const [send, list] = mix.requests;
    expect(send!.method).toBe('POST');
    expect(send!.path.render(s)).toBe('/v1/whatsapp/messages');
    expect(send!.headers).toMatchObject({ authorization: 'Bearer sk_test', 'content-type': 'application/json' });
    const body = JSON.parse(send!.body!.render(s)) as { to: string; text: { body: string } };
    expect(body.to).toMatch(/^[1-9][0-9]{6,14}$/);
    expect(body.text.body).toBe('load test 1');
    expect(list!.path.render(s)).toBe('/v1/whatsapp/messages?limit=20&since=1970-01-01T00%3A00%3A00.000Z');
    expect(send!.expected(201)).toBe(true);
    expect(send!.expected(429)).toBe(false);
    expect(() => createRequestMix({ requests: [{ name: 'login', weight: 1, operation: 'login' }] }, { api: config.api, credentials: {} })).toThrow(/no login credentials/);
  });
});
