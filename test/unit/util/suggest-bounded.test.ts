/**
 * The bounded edit distance that made `harness validate` linear again gives the same distances and the same
 * suggestions as the full-matrix version it replaced.
 */
import { describe, expect, it } from 'vitest';
import { editDistance, matrixDistance, suggestKey } from '../../../src/util/suggest.ts';

describe('bounded edit distance', () => {
  it('equals the full-matrix distance on words, typos, transpositions and random strings', () => {
    const words = ['', 'a', 'ab', 'ba', 'timeoutMs', 'tiemoutMs', 'baseUrl', 'base_url', 'auth.api-key.missing', 'auth.api-key.mising', 'smoke.send-text-message', 'xyz'];
    let seed = 7;
    const random = (): string => Array.from({ length: 1 + (seed = (seed * 48271) % 2147483647) % 12 }, () => 'abcde'[(seed = (seed * 48271) % 2147483647) % 5]).join('');
    const pool = [...words, ...Array.from({ length: 40 }, random)];
    for (const a of pool) for (const b of pool) expect(editDistance(a, b), `${a} / ${b}`).toBe(matrixDistance(a, b));
  });

  it('suggests as before: the nearest close candidate, the first of equals, none for a different word', () => {
    const ids = ['smoke.send-text-message', 'smoke.list-messages-envelope', 'auth.api-key.missing', 'auth.api-key.malformed-header'];
    expect(suggestKey('smoke.send-text-mesage', ids)).toBe('smoke.send-text-message');
    expect(suggestKey('auth.api-key.mising', ids)).toBe('auth.api-key.missing');
    expect(suggestKey('nosuch.check-1', ids)).toBeUndefined();
    expect(suggestKey('tiemoutMs', ['timeoutMs', 'host'])).toBe('timeoutMs');
    expect(suggestKey('colour', ['host', 'port'])).toBeUndefined();
  });
});
