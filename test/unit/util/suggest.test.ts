import { describe, expect, it } from 'vitest';
import { editDistance, suggestKey } from '../../../src/util/suggest.ts';

describe('editDistance (Damerau-Levenshtein, optimal string alignment)', () => {
  it.each([
    ['', '', 0],
    ['abc', 'abc', 0],
    ['abc', '', 3],
    ['kitten', 'sitting', 3],
    ['baseUrll', 'baseUrl', 1],
    ['tiemoutMs', 'timeoutMs', 1], // one transposition
    ['ca', 'abc', 3], // OSA, not unrestricted Damerau
  ])('%s ↔ %s = %i', (a, b, d) => {
    expect(editDistance(a, b)).toBe(d);
    expect(editDistance(b, a)).toBe(d);
  });
});

describe('suggestKey', () => {
  const keys = ['baseUrl', 'timeoutMs'];

  it.each([
    ['baseUrll', 'baseUrl'],
    ['baseurl', 'baseUrl'],
    ['base_url', 'baseUrl'],
    ['base-url', 'baseUrl'],
    ['timeout', 'timeoutMs'],
    ['timout_ms', 'timeoutMs'],
  ])('%s → %s', (typo, key) => {
    expect(suggestKey(typo, keys)).toBe(key);
  });

  it('stays silent when nothing is close', () => {
    expect(suggestKey('colour', ['host', 'port', 'rateLimit'])).toBeUndefined();
    expect(suggestKey('url', keys)).toBeUndefined();
    expect(suggestKey('x', [])).toBeUndefined();
  });

  it('prefers the closest of several candidates', () => {
    expect(suggestKey('reprot', ['report', 'reference', 'target'])).toBe('report');
  });
});
