import { describe, expect, it } from 'vitest';
import { FormIndex } from '../../../src/http/form-index.ts';

describe('FormIndex', () => {
  it('finds every form, leftmost and non-overlapping, the longest at one position', () => {
    const index = new FormIndex();
    index.add('secret-one', false);
    index.add('secret-one-longer', false);
    index.add('QUJDREVG', true);
    const text = 'x secret-one-longer y secret-one z QUJDREVGxx secret-one';
    expect(index.find(text).map((h) => [text.slice(h.start, h.end), h.widen])).toEqual([
      ['secret-one-longer', false],
      ['secret-one', false],
      ['QUJDREVG', true],
      ['secret-one', false],
    ]);
  });

  it('finds a form at the very start and end, and nothing in text shorter than a form', () => {
    const index = new FormIndex();
    index.add('abcdef', false);
    expect(index.find('abcdef').map((h) => [h.start, h.end])).toEqual([[0, 6]]);
    expect(index.find('zzabcdef').map((h) => [h.start, h.end])).toEqual([[2, 8]]);
    expect(index.find('abcde')).toEqual([]);
    expect(index.find('abcdeF')).toEqual([]);
  });

  it('handles non-ASCII text and forms', () => {
    const index = new FormIndex();
    index.add('clé-secrète', false);
    const text = 'ü clé-secrète 🎉';
    const [hit] = index.find(text);
    expect(text.slice(hit!.start, hit!.end)).toBe('clé-secrète');
  });
});
