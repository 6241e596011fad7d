import { describe, expect, it } from 'vitest';
import { deepFreeze } from '../../../src/config/freeze.ts';
import { deepMerge, pruneUndefined } from '../../../src/config/merge.ts';

describe('deepMerge', () => {
  it('merges mappings key by key and replaces arrays and scalars', () => {
    const base = { a: { b: 1, c: [1, 2] }, d: 'x' };
    expect(deepMerge(base, { a: { c: [3] }, d: 'y', e: true })).toEqual({ a: { b: 1, c: [3] }, d: 'y', e: true });
  });

  it('ignores undefined members and leaves its inputs unchanged', () => {
    const base = { a: { b: 1 } };
    const layer = { a: { b: undefined, c: 2 } };
    const out = deepMerge(base, layer);
    expect(out).toEqual({ a: { b: 1, c: 2 } });
    expect(base).toEqual({ a: { b: 1 } });
    out.a.b = 5;
    expect(base.a.b).toBe(1);
  });

  it('pruneUndefined removes undefined members recursively', () => {
    expect(pruneUndefined({ a: undefined, b: { c: undefined, d: 1 } })).toEqual({ b: { d: 1 } });
  });
});

describe('deepFreeze', () => {
  it('freezes nested objects and arrays', () => {
    const value = deepFreeze({ a: { b: [1, { c: 2 }] } });
    expect(Object.isFrozen(value.a.b)).toBe(true);
    expect(Object.isFrozen(value.a.b[1])).toBe(true);
    expect(() => {
      (value.a as { b: unknown }).b = [];
    }).toThrow(TypeError);
  });
});
