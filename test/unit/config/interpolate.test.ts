import { describe, expect, it } from 'vitest';
import { interpolateString } from '../../../src/config/interpolate.ts';

describe('interpolateString', () => {
  const env = { A: 'alpha', EMPTY: '' };

  it.each([
    ['${A}', 'alpha'],
    ['x-${A}-y', 'x-alpha-y'],
    ['${A}${A}', 'alphaalpha'],
    ['${EMPTY}', ''],
    ['${MISSING:-fallback}', 'fallback'],
    ['${EMPTY:-fallback}', 'fallback'],
    ['${A:-fallback}', 'alpha'],
    ['${MISSING:-}', ''],
    ['${MISSING:-a:b/c}', 'a:b/c'],
    ['$${A}', '${A}'],
    ['cost: $5', 'cost: $5'],
    ['no references', 'no references'],
  ])('%s → %s', (text, value) => {
    expect(interpolateString(text, env)).toEqual({ value, problems: [] });
  });

  it('names an unset variable and how to make it optional', () => {
    expect(interpolateString('${NOPE}', env).problems).toEqual(['environment variable NOPE is not set (write ${NOPE:-} to make it optional)']);
  });

  it('reports every problem in one string', () => {
    expect(interpolateString('${X} ${Y} ${9}', {}).problems).toHaveLength(3);
  });

  it('rejects malformed and unterminated references', () => {
    expect(interpolateString('${A B}', env).problems[0]).toMatch(/is not a valid reference/);
    expect(interpolateString('${A', env).problems[0]).toMatch(/^unterminated "\$\{"/);
  });
});
