import { describe, expect, it } from 'vitest';
import { canonicalJson, cutDeep, jsonDepth, mapJson, MAX_KEPT_DEPTH, MAX_READ_DEPTH, stringifyJson, textDepth, tooDeep } from '../../../src/util/deep-json.ts';
import { deepJson } from '../../targets/hostile/servers.ts';

/** The hostile corpus's answer: 200 000 levels, which every recursive walk (and JSON.stringify) overflows on. */
const DEEP = JSON.parse(deepJson());

describe('walks over JSON at any depth', () => {
  it('the corpus body is deeper than the stack allows JSON.stringify to go', () => {
    expect(() => JSON.stringify(DEEP)).toThrow(RangeError);
    expect(jsonDepth(DEEP)).toBe(200_001);
  });

  it('stringifyJson writes what JSON.stringify writes, deep or not', () => {
    const samples: unknown[] = [
      null, 1, 'a"b', true, [], {}, [1, [2, [3]]], { b: 1, a: [null, 'x', { c: {} }] },
      { skip: undefined, fn: () => 1, n: Number.NaN, d: new Date(0), list: [undefined, () => 1] },
    ];
    for (const sample of samples) expect(stringifyJson(sample)).toBe(JSON.stringify(sample));
    expect(stringifyJson(DEEP)).toBe(deepJson());
  });

  it('canonicalJson sorts members at every level, so equal values compare equal', () => {
    expect(canonicalJson({ b: 1, a: { d: 2, c: [3, { f: 1, e: 0 }] } })).toBe('{"a":{"c":[3,{"e":0,"f":1}],"d":2},"b":1}');
    expect(canonicalJson(DEEP)).toBe(canonicalJson(JSON.parse(deepJson())));
    expect(canonicalJson(DEEP)).not.toBe(canonicalJson(JSON.parse(deepJson(199_999))));
  });

  it('mapJson copies at any depth, mapping strings and names, and replaces members it is told to', () => {
    const mapped = mapJson({ a: ['x', { password: 'p', b: 'y' }] }, {
      onString: (s) => s.toUpperCase(),
      onKey: (k) => `${k}!`,
      replace: (key) => (key === 'password' ? { value: '[R]' } : undefined),
    });
    expect(mapped).toEqual({ 'a!': ['X', { 'password!': '[R]', 'b!': 'Y' }] });
    expect(jsonDepth(mapJson(DEEP, {}))).toBe(200_001);
  });

  it('cutDeep keeps a shallow value as it is and cuts a deep one at MAX_KEPT_DEPTH, naming the depth', () => {
    const shallow = { a: [1, { b: 2 }] };
    expect(cutDeep(shallow)).toBe(shallow);
    const cut = cutDeep({ expected: DEEP });
    expect(jsonDepth(cut)).toBe(MAX_KEPT_DEPTH);
    const text = JSON.stringify(cut);
    expect(text).toContain(`[cut: JSON nested 200002 levels deep; the first ${MAX_KEPT_DEPTH} are kept]`);
    expect(text.startsWith('{"expected":{"id":"msg_deep","status":"queued","data":[[{"k":[[{"k":')).toBe(true);
  });

  it('textDepth reads the nesting from the text alone, strings and escapes aside', () => {
    expect(textDepth('{"a":[1,{"b":"[[[{{"}],"c":"\\"}"}')).toBe(3);
    expect(textDepth(deepJson())).toBe(200_001);
    expect(textDepth('"just a string"')).toBe(0);
  });

  it('tooDeep: a body nested deeper than checks read names its depth; an ordinary body is read', () => {
    expect(tooDeep(deepJson())).toBe(200_001);
    expect(tooDeep(deepJson(MAX_READ_DEPTH - 1))).toBeUndefined();
    expect(tooDeep(JSON.stringify({ data: Array.from({ length: 5000 }, (_, i) => ({ id: `m${i}` })) }))).toBeUndefined();
  });
});

describe('tooDeep on text that cannot nest', () => {
  it('a long body that opens with neither [ nor { is not scanned as nesting, whatever brackets follow', () => {
    expect(tooDeep(`x${'['.repeat(5000)}`)).toBeUndefined();
    expect(tooDeep(`  "${'['.repeat(5000)}"`)).toBeUndefined();
  });
  it('a deep array after leading whitespace, even more than 4 KiB of it, is still found', () => {
    expect(tooDeep(`\n ${'['.repeat(5000)}${']'.repeat(5000)}`)).toBe(5000);
    expect(tooDeep(`${' '.repeat(5000)}${'['.repeat(5000)}${']'.repeat(5000)}`)).toBe(5000);
  });
});
